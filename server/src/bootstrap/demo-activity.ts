// After the first start has created the demo company: pair its simulator connection and let a few
// simulated customers write, so the demo opens on real tickets made by the real inbound pipeline.
import type { AppDeps } from '../context.ts';
import type { DemoResult } from './first-start.ts';

const PAIRING_TIMEOUT_MS = 10_000;

export async function playDemoConversations(deps: AppDeps, demo: DemoResult): Promise<void> {
  await deps.sessions.start(demo.companyId, demo.connectionId);
  await deps.sessions.simulator.scan(demo.connectionId);
  await waitUntilConnected(deps, demo.connectionId);
  for (const conversation of demo.conversations) {
    for (const body of conversation.messages) {
      await deps.sessions.simulator.deliver(demo.connectionId, { from: conversation.from, name: conversation.name, body });
    }
  }
}

async function waitUntilConnected(deps: AppDeps, connectionId: number): Promise<void> {
  const until = Date.now() + PAIRING_TIMEOUT_MS;
  while (deps.sessions.getChannel(connectionId)?.status() !== 'CONNECTED') {
    if (Date.now() > until) throw new Error(`demo connection ${connectionId} did not connect`);
    await new Promise((r) => setTimeout(r, 20));
  }
  await deps.sessions.flush(connectionId);
}
