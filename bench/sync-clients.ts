// Child process of sync.bench.ts (one of several, see sync-client-pool.ts): its share of the real
// Replicache clients (memory store, pokes over ws, no polling), each reporting over IPC the moment
// the watched key shows a new value, on the clock the coordinator reads too (timeOrigin + now).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createApiClient, createNodeReplicache } from '@zapdesk/sync/node';
import type { SyncClient } from '@zapdesk/sync/replicache';

type Start = { type: 'start'; url: string; users: { email: string; password: string }[]; watchKey: string; expectedRows: number };
const now = () => performance.timeOrigin + performance.now();
const send = (m: unknown) => process.send?.(m);
const clients: SyncClient[] = [];

// Sightings are timed where they happen and sent in one IPC message per turn of the event loop:
// one message per client cost the clients' thread as much as a share of Replicache's own work.
let seen: { name: string; at: number }[] = [];
function reportSeen(name: string) {
  if (seen.length === 0) setImmediate(() => {
    send({ type: 'seen', items: seen });
    seen = [];
  });
  seen.push({ name, at: now() });
}

async function start(m: Start) {
  const t0 = performance.now();
  await Promise.all(
    m.users.map(async (u) => {
      const api = createApiClient({ baseUrl: m.url, refreshTokenStore: { get: () => null, set: () => {} } });
      const session = await api.login(u.email, u.password);
      const client = createNodeReplicache({ api, userId: session.user.id, companyId: session.user.companyId, pullInterval: null });
      clients.push(client);
      await client.pokes?.whenOpen();
      for (;;) {
        const n = await client.rep.query(async (tx) => (await tx.scan().keys().toArray()).length);
        if (n >= m.expectedRows) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      client.rep.subscribe((tx) => tx.get(m.watchKey), {
        onData: (v) => {
          const name = (v as { name?: string } | undefined)?.name;
          if (name) reportSeen(name);
        },
      });
    }),
  );
  send({ type: 'ready', connectMs: performance.now() - t0 });
}

// The clients' own CPU over the poke rounds (and, with BENCH_CLIENT_PROFILE=<file>, a profile):
// the clients of this process share its one thread, so their work adds to the measured latency.
let cpu0: NodeJS.CpuUsage | undefined;
const profiler = process.env.BENCH_CLIENT_PROFILE ? new Session() : undefined;
async function startMeasuring() {
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  cpu0 = process.cpuUsage();
}
async function stopMeasuring() {
  const cpu = process.cpuUsage(cpu0);
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.BENCH_CLIENT_PROFILE!, JSON.stringify(profile));
  }
  send({ type: 'cpu', ms: (cpu.user + cpu.system) / 1000 });
}

// The coordinator gone (it failed or was killed): nothing to report to, so no reason to linger.
process.on('disconnect', () => process.exit(0));
process.on('message', (m: Start | { type: 'clock' } | { type: 'measure' } | { type: 'measured' } | { type: 'stop' }) => {
  if (m.type === 'clock') send({ type: 'clock', at: now() });
  if (m.type === 'start') start(m).catch((err: unknown) => send({ type: 'error', error: String(err) }));
  if (m.type === 'measure') void startMeasuring().then(() => send({ type: 'measuring' }));
  if (m.type === 'measured') void stopMeasuring();
  if (m.type === 'stop') void Promise.all(clients.map((c) => c.close().catch(() => {}))).then(() => process.exit(0));
});
