// The chain's write acts on the ticket as it is when the write runs, not as the delivery stored it
// (chain.ts), on a fresh database of each dialect. The chain's write of a message is delayed past
// what moves the ticket meanwhile — a flow's timer handing it over to a queue, an agent accepting
// it — by running it here with the row the delivery had read before that move.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { tenant } from '../db/tenant.ts';
import { write } from '../db/write.ts';
import { fireDueFlowTimers } from '../flows-runtime/timers.ts';
import { runInboundChain } from './chain.ts';
import { loadConnectionContext } from './connection-context.ts';

type Desk = Awaited<ReturnType<typeof setupDesk>>;
const id = (s: string) => s.padEnd(30, '0');
const [HELLO, WAIT, HAND] = [id('hello'), id('wait'), id('hand')];
const inSeconds = (s: number) => new Date(Date.now() + s * 1000);

describe.each(DIALECTS)('the inbound chain on a ticket that moved on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  /** Two queues (so the queue menu would answer); a phrase "quero ajuda" starts: hello → interval 2 s → hand over to Support. */
  async function setup() {
    const desk = await setupDesk(t, { queues: [{ name: 'Sales' }, { name: 'Support' }] });
    const token = desk.adminSession.token;
    const support = desk.queues[1]!.id;
    const node = (nodeId: string, type: string, data: Record<string, unknown>) => ({ id: nodeId, type, position: { x: 0, y: 0 }, data });
    const edge = (source: string, target: string) => ({ source, target, sourceHandle: null, type: 'buttonedge' });
    const flowId = (await t.request('POST', '/flowbuilder', { token, body: { name: 'Espera' } })).body.id as number;
    const graph = {
      nodes: [node('1', 'start', {}), node(HELLO, 'message', { label: 'Um momento…' }), node(WAIT, 'interval', { sec: 2 }), node(HAND, 'ticket', { queue: { id: support, name: 'Support' } })],
      connections: [edge('1', HELLO), edge(HELLO, WAIT), edge(WAIT, HAND)],
    };
    expect((await t.request('POST', '/flowbuilder/flow', { token, body: { idFlow: flowId, ...graph } })).status).toBe(200);
    expect((await t.request('POST', '/flowcampaign', { token, body: { name: 'Ajuda', flowId, phrase: 'quero ajuda' } })).status).toBe(201);
    return { desk, support };
  }

  /** The chain's write of the ticket's latest inbound message, with the ticket row given (as the delivery read it). */
  async function runDelayedChain(desk: Desk, staleTicket: NonNullable<Awaited<ReturnType<Desk['ticketOf']>>>, body: string) {
    const db = tenant(t.db, desk.companyId);
    const message = await db.selectFrom('messages').select('messages.id').where('messages.ticketId', '=', staleTicket.id).where('messages.fromMe', '=', 0).orderBy('messages.id', 'desc').executeTakeFirstOrThrow();
    const contact = await db.selectFrom('contacts').selectAll('contacts').where('contacts.id', '=', staleTicket.contactId).executeTakeFirstOrThrow();
    const context = (await loadConnectionContext(t.deps, { id: desk.connectionId, companyId: desk.companyId }))!;
    await write(t.deps, (tx) => runInboundChain(tx, { context, ticket: staleTicket, contact, messageId: message.id, body, now: new Date() }));
  }
  const bodies = async (desk: Desk, from: string) => (await desk.outbox(from)).map((m) => m.body);

  it('a message whose chain runs after the flow handed the ticket over gets no queue menu on top of it', async () => {
    const { desk, support } = await setup();
    const from = newNumber();
    await desk.say(from, 'Quero ajuda');
    expect(await bodies(desk, from)).toEqual(['Um momento…']);
    // The customer writes during the wait; the delivery reads the ticket in the flow, in no queue.
    await desk.say(from, 'alô?');
    const seen = (await desk.ticketOf(from))!;
    expect(seen).toMatchObject({ queueId: null, flowNodeId: WAIT });
    // Before that message's chain runs, the timer fires: the flow hands the ticket over to Support.
    expect((await fireDueFlowTimers(t.deps, { now: inSeconds(3) })).fired).toBe(1);
    expect(await desk.ticketOf(from)).toMatchObject({ queueId: support, chatbot: 0, flowId: null });

    await runDelayedChain(desk, seen, 'alô?');
    expect(await bodies(desk, from)).toEqual(['Um momento…']);
    expect(await desk.ticketOf(from)).toMatchObject({ queueId: support, chatbot: 0, status: 'pending', userId: null });
  });

  it('a phrase whose chain runs after an agent accepted the ticket starts no flow in the agent’s conversation', async () => {
    const { desk } = await setup();
    const from = newNumber();
    await desk.say(from, 'bom dia');
    const menu = await bodies(desk, from);
    expect(menu).toHaveLength(1);
    await desk.say(from, 'quero ajuda', {});
    const seen = (await desk.ticketOf(from))!;
    // (The real chain of that message started the flow; end it, then replay the chain as if it had
    // run only after the agent's accept.)
    expect((await t.request('POST', `/tickets/${seen.id}/flow/stop`, { token: desk.adminSession.token })).status).toBe(200);
    const before = (await desk.ticketOf(from))!;
    const accepted = await t.request('PUT', `/tickets/${seen.id}`, { token: desk.adminSession.token, body: { status: 'open', userId: desk.admin.id } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const sent = (await bodies(desk, from)).length;

    await runDelayedChain(desk, before, 'quero ajuda');
    expect(await bodies(desk, from)).toHaveLength(sent);
    expect(await desk.ticketOf(from)).toMatchObject({ status: 'open', userId: desk.admin.id, flowId: null });
    const runs = await tenant(t.db, desk.companyId).selectFrom('flowRuns').select('flowRuns.status').where('flowRuns.ticketId', '=', seen.id).execute();
    expect(runs.map((r) => r.status)).toEqual(['stopped']);
  });
});
