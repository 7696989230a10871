// The simulator's outage and fault controls through the real app: a timed network drop, slow and
// failing sends, and the simulated phone's outbox surviving a restart of the process.
import { AppError } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedSuper, seedTenant } from '../../../test/seed.ts';
import { createApp } from '../../app.ts';
import { createChannelSessions } from '../../channels/index.ts';
import { waitFor } from '../../channels/testing.ts';
import type { Channel } from '../../channels/types.ts';
import { write } from '../../db/write.ts';

describe.each(DIALECTS)('simulator drops, faults and durable outbox on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true, simulatorTiming: { qrIntervalMs: 60_000, qrMaxAttempts: 3, reconnectDelayMs: 150 } });
  });
  afterAll(async () => t.close());

  async function pairedConnection() {
    const tenant = await seedTenant(t);
    const token = tenant.adminSession.token;
    const created = await t.request('POST', '/whatsapp', { token, body: { name: 'Sales line', provider: 'simulator' } });
    const id = (created.body as { id: number }).id;
    await t.request('POST', `/whatsappsession/${id}`, { token });
    await t.request('POST', `/simulator/connections/${id}/scan`, { token, body: { number: '5511900001111' } });
    return { ...tenant, id, token };
  }
  const statusOf = async (token: string, id: number) => (await t.request('GET', `/whatsapp/${id}`, { token })).body.status as string;
  const outbox = async (token: string, id: number) => (await t.request('GET', `/simulator/outbox?connectionId=${id}`, { token })).body as { id: string; body: string; ack: number }[];
  const faults = (token: string, id: number, body: Record<string, unknown>) => t.request('POST', `/simulator/connections/${id}/faults`, { token, body });
  const text = (channel: Channel, body: string) => channel.send({ to: { number: '5511977776666' }, content: { kind: 'text', body } });
  /** The rejection of a send, or a failure of the test when it succeeded. */
  const failureOf = (send: Promise<unknown>) => send.then(() => expect.fail('the send should have failed'), (err: unknown) => err);

  it('a network drop with forMs stays OPENING (sends refused) and comes back after about that time', async () => {
    const { id, token } = await pairedConnection();
    const started = Date.now();
    const drop = await t.request('POST', `/simulator/connections/${id}/drop`, { token, body: { cause: 'network', forMs: 600 } });
    expect(drop.status).toBe(200);
    expect(drop.body).toEqual({ id, cause: 'network', forMs: 600, status: 'OPENING' });
    expect(await statusOf(token, id)).toBe('OPENING');
    await expect(text(t.deps.sessions.getChannel(id)!, 'while down')).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    await waitFor(() => statusOf(token, id), (s) => s === 'CONNECTED', 10_000);
    // Timers may fire a millisecond early; the point is that it waited forMs, not the 150 ms default.
    expect(Date.now() - started).toBeGreaterThanOrEqual(590);
    await text(t.deps.sessions.getChannel(id)!, 'back');
    expect((await outbox(token, id)).map((m) => m.body)).toEqual(['back']);

    // Without forMs: the simulator's reconnect delay.
    const quick = await t.request('POST', `/simulator/connections/${id}/drop`, { token, body: {} });
    expect(quick.body).toEqual({ id, cause: 'network', forMs: 150, status: 'OPENING' });
    await waitFor(() => statusOf(token, id), (s) => s === 'CONNECTED');
  });

  it('validates forMs: an integer of 0..600000, for network drops only', async () => {
    const { id, token } = await pairedConnection();
    for (const forMs of [-1, 1.5, 600_001, '100', null]) {
      const res = await t.request('POST', `/simulator/connections/${id}/drop`, { token, body: { cause: 'network', forMs } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.issues[0].path).toBe('forMs');
    }
    const loggedOut = await t.request('POST', `/simulator/connections/${id}/drop`, { token, body: { cause: 'loggedOut', forMs: 100 } });
    expect(loggedOut.status).toBe(400);
    expect(loggedOut.body.issues[0].path).toBe('forMs');
    expect(await statusOf(token, id)).toBe('CONNECTED');
  });

  it('sendLatencyMs delays each send (recorded at the end, sends overlapping); fields kept when omitted; 0 clears', async () => {
    const { id, token } = await pairedConnection();
    const set = await faults(token, id, { sendLatencyMs: 400 });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ id, sendLatencyMs: 400, failSends: 0, deliverAfterMs: 0, readAfterMs: 0 });
    const channel = t.deps.sessions.getChannel(id)!;

    let started = Date.now();
    const slow = text(channel, 'slow');
    // WhatsApp has not accepted it yet: nothing in the outbox until the latency is over.
    expect(await outbox(token, id)).toEqual([]);
    const sent = await slow;
    expect(Date.now() - started).toBeGreaterThanOrEqual(395);
    expect(await outbox(token, id)).toEqual([expect.objectContaining({ id: sent.id, body: 'slow', ack: 1 })]);

    // Three sends in flight at once each take the latency; the simulator does not queue them.
    started = Date.now();
    const many = await Promise.all(['a', 'b', 'c'].map((body) => text(channel, body)));
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(395);
    expect(elapsed).toBeLessThan(3 * 400);
    expect((await outbox(token, id)).map((m) => m.id)).toEqual([sent.id, ...many.map((m) => m.id)]);

    // An empty body changes nothing and answers the current faults.
    expect((await faults(token, id, {})).body).toEqual({ id, sendLatencyMs: 400, failSends: 0, deliverAfterMs: 0, readAfterMs: 0 });
    expect((await faults(token, id, { failSends: 1 })).body).toEqual({ id, sendLatencyMs: 400, failSends: 1, deliverAfterMs: 0, readAfterMs: 0 });
    expect((await faults(token, id, { sendLatencyMs: 0, failSends: 0 })).body).toEqual({ id, sendLatencyMs: 0, failSends: 0, deliverAfterMs: 0, readAfterMs: 0 });
    await text(channel, 'fast again');
    expect((await outbox(token, id)).at(-1)!.body).toBe('fast again');
  });

  it('failSends fails exactly that many sends with a transient error, recording nothing, then sends again', async () => {
    const { id, token } = await pairedConnection();
    expect((await faults(token, id, { failSends: 2 })).body).toEqual({ id, sendLatencyMs: 0, failSends: 2, deliverAfterMs: 0, readAfterMs: 0 });
    const channel = t.deps.sessions.getChannel(id)!;
    for (const body of ['first', 'second']) {
      const err = await failureOf(text(channel, body));
      // A plain Error, not an AppError with a final code: a sender retries it.
      expect(err).toBeInstanceOf(Error);
      expect(err).not.toBeInstanceOf(AppError);
      expect((err as Error).message).toBe('simulated transient send failure');
    }
    expect((await faults(token, id, {})).body.failSends).toBe(0);
    expect(await outbox(token, id)).toEqual([]);
    const third = await text(channel, 'third');
    expect(await outbox(token, id)).toEqual([expect.objectContaining({ id: third.id, body: 'third' })]);
  });

  it("a reply the customer's phone confirms gets its ticks in the chat: delivered, then read", async () => {
    const { id, token, company } = await pairedConnection();
    expect((await faults(token, id, { deliverAfterMs: 50, readAfterMs: 100 })).body).toEqual({ id, sendLatencyMs: 0, failSends: 0, deliverAfterMs: 50, readAfterMs: 100 });
    await t.request('POST', '/simulator/messages', { token, body: { connectionId: id, from: '5511977776666', name: 'Rita', body: 'Oi!' } });
    const ticketId = await waitFor(
      async () => (await t.db.selectFrom('tickets').select('tickets.id').where('tickets.companyId', '=', company.id).where('tickets.whatsappId', '=', id).executeTakeFirst())?.id,
      (found) => found !== undefined,
    );
    expect((await t.request('PUT', `/tickets/${ticketId}`, { token, body: { status: 'open' } })).status).toBe(200);
    const sent = await t.request('POST', `/messages/${ticketId}`, { token, body: { body: 'Olá, Rita!' } });
    expect(sent.status).toBe(201);
    const ackOf = async () => (await t.db.selectFrom('messages').select('messages.ack').where('messages.ticketId', '=', ticketId!).where('messages.fromMe', '=', 1).where('messages.body', 'like', '%Olá, Rita!%').executeTakeFirstOrThrow()).ack;
    expect(await waitFor(ackOf, (ack) => ack === 3)).toBe(3);
    expect((await outbox(token, id)).at(-1)).toMatchObject({ body: expect.stringContaining('Olá, Rita!'), ack: 3 });
  });

  it('faults belong to the phone: they survive a drop and reconnect', async () => {
    const { id, token } = await pairedConnection();
    await faults(token, id, { sendLatencyMs: 200, failSends: 1 });
    await t.request('POST', `/simulator/connections/${id}/drop`, { token, body: { cause: 'network', forMs: 50 } });
    await waitFor(() => statusOf(token, id), (s) => s === 'CONNECTED');
    expect((await faults(token, id, {})).body).toEqual({ id, sendLatencyMs: 200, failSends: 1, deliverAfterMs: 0, readAfterMs: 0 });
    // A replaced session started again is a new channel on the same phone.
    await t.request('POST', `/simulator/connections/${id}/drop`, { token, body: { cause: 'replaced' } });
    expect((await t.request('POST', `/whatsappsession/${id}`, { token })).body.status).toBe('CONNECTED');
    const channel = t.deps.sessions.getChannel(id)!;
    const started = Date.now();
    expect(await failureOf(text(channel, 'lost'))).toMatchObject({ message: 'simulated transient send failure' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(195);
    await text(channel, 'kept');
    expect((await outbox(token, id)).map((m) => m.body)).toEqual(['kept']);
  });

  it('a send whose connection dropped during the latency fails ERR_WAPP_NOT_INITIALIZED and records nothing', async () => {
    const { id, token } = await pairedConnection();
    await faults(token, id, { sendLatencyMs: 500 });
    const channel = t.deps.sessions.getChannel(id)!;
    // The connection is back before the latency ends: the message still went down with the old socket.
    const inFlight = text(channel, 'in flight');
    await t.request('POST', `/simulator/connections/${id}/drop`, { token, body: { cause: 'network', forMs: 50 } });
    await waitFor(() => statusOf(token, id), (s) => s === 'CONNECTED');
    expect(await failureOf(inFlight)).toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    // Still down when the latency ends.
    const stillDown = text(channel, 'still down');
    await t.request('POST', `/simulator/connections/${id}/drop`, { token, body: { cause: 'network', forMs: 60_000 } });
    expect(await failureOf(stillDown)).toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    expect(await outbox(token, id)).toEqual([]);
    await t.request('DELETE', `/whatsappsession/${id}`, { token });
  });

  it('validates the faults and answers only an admin of the company or the super-admin', async () => {
    const { id, token } = await pairedConnection();
    for (const body of [{ sendLatencyMs: -1 }, { sendLatencyMs: 1.5 }, { sendLatencyMs: 600_001 }, { sendLatencyMs: '10' }, { failSends: -1 }, { failSends: 0.5 }]) {
      const res = await faults(token, id, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.issues[0].path).toBe(Object.keys(body)[0]);
    }
    const other = await seedTenant(t);
    const foreign = await faults(other.adminSession.token, id, { failSends: 5 });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_WAPP_FOUND');
    expect((await t.request('POST', `/simulator/connections/${id}/drop`, { token: other.adminSession.token, body: { forMs: 10 } })).body.error).toBe('ERR_NO_WAPP_FOUND');
    expect((await faults(other.userSession.token, id, { failSends: 5 })).status).toBe(403);
    expect((await faults(token, 999_999, { failSends: 5 })).body.error).toBe('ERR_NO_WAPP_FOUND');
    // Nothing changed by the refused calls; the super-admin may set them.
    expect((await faults(token, id, {})).body).toEqual({ id, sendLatencyMs: 0, failSends: 0, deliverAfterMs: 0, readAfterMs: 0 });
    const root = await seedSuper(t);
    expect((await faults(root.session.token, id, { failSends: 1 })).body).toEqual({ id, sendLatencyMs: 0, failSends: 1, deliverAfterMs: 0, readAfterMs: 0 });
  });

  it('a burst stores each message once, answers their ids in order, and a repeated burst stores nothing new', async () => {
    const { id, token, company } = await pairedConnection();
    const messages = Array.from({ length: 30 }, (_, i) => ({ from: `55219000${String(i % 7).padStart(5, '0')}`, name: `Burst ${i % 7}`, body: `burst ${i}`, ...(i % 3 === 0 ? { id: `burst-${i}` } : {}) }));
    const burst = await t.request('POST', `/simulator/connections/${id}/messages`, { token, body: { messages } });
    expect(burst.status).toBe(200);
    const ids = burst.body.ids as string[];
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect(ids.filter((_, i) => i % 3 === 0)).toEqual(messages.filter((_, i) => i % 3 === 0).map((m) => m.id));
    // Answered once stored: every message is there, in its contact's ticket.
    const stored = async () =>
      t.db.selectFrom('messages').innerJoin('contacts', 'contacts.id', 'messages.contactId').select(['messages.wid', 'messages.body', 'contacts.number']).where('messages.companyId', '=', company.id).where('messages.whatsappId', '=', id).execute();
    const rows = await stored();
    expect(new Map(rows.map((r) => [r.wid, [r.body, r.number]]))).toEqual(new Map(ids.map((wid, i) => [wid, [messages[i]!.body, messages[i]!.from]])));
    const tickets = await t.db.selectFrom('tickets').select('tickets.contactId').where('tickets.companyId', '=', company.id).where('tickets.whatsappId', '=', id).execute();
    expect(tickets).toHaveLength(7);

    // The same burst again (the same ids): nothing new.
    const again = await t.request('POST', `/simulator/connections/${id}/messages`, { token, body: { messages: messages.map((m, i) => ({ ...m, id: ids[i] })) } });
    expect(again.body.ids).toEqual(ids);
    expect(await stored()).toHaveLength(30);
  });

  it('validates a burst (1 to 500 messages, each as POST /simulator/messages takes it) and answers only its company', async () => {
    const { id, token, company } = await pairedConnection();
    const one = { from: '5521900001234', body: 'hi' };
    for (const [body, path] of [[{ messages: [] }, 'messages'], [{ messages: Array(501).fill(one) }, 'messages'], [{ messages: [one, { from: 'abc' }] }, 'messages.1.from'], [{}, 'messages']] as const) {
      const res = await t.request('POST', `/simulator/connections/${id}/messages`, { token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.issues[0].path).toBe(path);
    }
    const other = await seedTenant(t);
    expect((await t.request('POST', `/simulator/connections/${id}/messages`, { token: other.adminSession.token, body: { messages: [one] } })).body.error).toBe('ERR_NO_WAPP_FOUND');
    expect((await t.request('POST', `/simulator/connections/${id}/messages`, { token: other.userSession.token, body: { messages: [one] } })).status).toBe(403);
    expect((await t.request('POST', `/simulator/connections/999999/messages`, { token, body: { messages: [one] } })).body.error).toBe('ERR_NO_WAPP_FOUND');
    // Nothing was stored by the refused calls.
    const n = await t.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).where('messages.companyId', '=', company.id).executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(0);
  });

  it('the outbox outlives the process: a restarted server lists what was sent, in order, with ids and acks', async () => {
    const { id, token } = await pairedConnection();
    const channel = t.deps.sessions.getChannel(id)!;
    const first = await text(channel, 'one');
    const second = await channel.send({ to: { number: '5511955554444' }, content: { kind: 'location', latitude: -23.5, longitude: -46.6 }, quotedId: first.id });
    const third = await text(channel, 'three');
    await t.request('POST', '/simulator/acks', { token, body: { connectionId: id, messageId: first.id, ack: 3 } });
    await channel.deleteMessage({ number: '5511977776666' }, third.id);
    const before = await outbox(token, id);
    expect(before.map((m) => m.id)).toEqual([first.id, second.id, third.id]);

    // A new process on the same DATA_DIR: new session manager, new simulator network, same app routes.
    const restarted = createChannelSessions({ db: t.db, log: t.log, config: t.deps.config, realWhatsApp: false, write: (fn) => write(t.deps, fn) });
    const app = createApp({ ...t.deps, sessions: restarted });
    const res = await app.request(`/simulator/outbox?connectionId=${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const after = (await res.json()) as typeof before;
    expect(after).toEqual(before);
    expect(after).toEqual([
      expect.objectContaining({ id: first.id, body: 'one', ack: 3, deleted: false }),
      expect.objectContaining({ id: second.id, kind: 'location', quotedId: first.id, ack: 1 }),
      expect.objectContaining({ id: third.id, body: 'three', deleted: true }),
    ]);
    await restarted.stopAll();
  });
});
