// Tickets in the client view, read through POST /sync/pull: who gets which (with its contact and
// messages), and that ticket/<id> is what GET /tickets/{id} answers, however its related rows change.
import { ticketSchema, type Ticket } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { newNumber, setupDesk } from '../../../test/conversation.ts';
import { expectOneReadModel, syncClient } from '../../../test/read-model.ts';
import { tenant } from '../../db/tenant.ts';

type Patch = { op: string; key?: string; value?: Record<string, unknown> }[];

describe.each(DIALECTS)('tickets in the sync view on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  let seq = 0;
  const pull = async (token: string, clientGroupID: string, cookie: unknown = null) => {
    const res = await t.request('POST', '/sync/pull', { token, body: { pullVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID, cookie } });
    expect(res.status).toBe(200);
    return res.body as { cookie: unknown; patch: Patch };
  };
  const keys = (patch: Patch, prefix: string, op = 'put') => patch.filter((p) => p.op === op && p.key?.startsWith(prefix)).map((p) => p.key).sort();

  it('syncs the pending ticket to its queue’s attendant with contact and messages, not to others; it leaves when closed', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const from = newNumber();
    await desk.say(from, 'first', { name: 'Rita' });
    const ticket = (await desk.ticketOf(from))!;
    const group = `attendant-${++seq}`;
    const first = await pull(desk.userSession.token, group);
    expect(keys(first.patch, 'ticket/')).toEqual([`ticket/${ticket.id}`]);
    expect(first.patch.find((p) => p.key === `ticket/${ticket.id}`)?.value).toMatchObject({ status: 'pending', contact: { name: 'Rita' }, tags: [] });
    expect(keys(first.patch, 'contact/')).toEqual([`contact/${ticket.contactId}`]);
    expect(keys(first.patch, 'message/')).toHaveLength(1);
    expect((await pull(desk.outsiderSession.token, `outsider-${seq}`)).patch.filter((p) => p.key?.startsWith('ticket/'))).toEqual([]);

    // A new message and a tag reach the client on the next pull.
    await desk.say(from, 'second');
    const tag = await tenant(t.db, desk.companyId).insertInto('tags', { name: `T${seq}-${Date.now()}`, color: '#111' }).returning('tags.id').executeTakeFirstOrThrow();
    await tenant(t.db, desk.companyId).insertInto('ticketTags', { ticketId: ticket.id, tagId: tag.id }).execute();
    const second = await pull(desk.userSession.token, group, first.cookie);
    expect(keys(second.patch, 'message/')).toHaveLength(1);
    expect(second.patch.find((p) => p.key === `ticket/${ticket.id}`)?.value).toMatchObject({ unreadMessages: 2, tags: [{ id: tag.id }] });

    await t.request('PUT', `/tickets/${ticket.id}`, { token: desk.userSession.token, body: { status: 'closed' } });
    const third = await pull(desk.userSession.token, group, second.cookie);
    expect(keys(third.patch, 'ticket/', 'del')).toEqual([`ticket/${ticket.id}`]);
    expect(keys(third.patch, 'message/', 'del')).toHaveLength(2);
  });

  it("follows the viewer: joining the ticket's queue, leaving it, and the flags for tickets of no queue", async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const from = newNumber();
    await desk.say(from, 'hello', { name: 'Vera' });
    const ticket = (await desk.ticketOf(from))!;
    const group = `viewer-${++seq}`;
    const admin = desk.adminSession.token;
    const user = async (body: Record<string, unknown>) => expect((await t.request('PUT', `/users/${desk.outsider.id}`, { token: admin, body })).status).toBe(200);
    // The attendant's first pull and another user's (same company, same counters) before each change.
    const first = await pull(desk.outsiderSession.token, group);
    expect(keys(first.patch, 'ticket/')).toEqual([]);
    await pull(desk.userSession.token, `other-${seq}`);

    await user({ queueIds: [desk.queues[0]!.id] });
    const joined = await pull(desk.outsiderSession.token, group, first.cookie);
    expect(keys(joined.patch, 'ticket/')).toEqual([`ticket/${ticket.id}`]);

    await user({ queueIds: [] });
    const left = await pull(desk.outsiderSession.token, group, joined.cookie);
    expect(keys(left.patch, 'ticket/', 'del')).toEqual([`ticket/${ticket.id}`]);

    // A ticket of no queue: seen with "tickets without a queue" on, gone with it off.
    const loose = newNumber();
    await desk.say(loose, 'no queue here', { name: 'Ivo' });
    const looseTicket = (await desk.ticketOf(loose))!;
    await tenant(t.db, desk.companyId).updateTable('tickets').set((eb) => ({ queueId: null, version: eb('version', '+', 1) })).where('tickets.id', '=', looseTicket.id).execute();
    await user({ showNoQueue: true });
    const on = await pull(desk.outsiderSession.token, group, left.cookie);
    expect(keys(on.patch, 'ticket/')).toEqual([`ticket/${looseTicket.id}`]);
    await user({ showNoQueue: false });
    const off = await pull(desk.outsiderSession.token, group, on.cookie);
    expect(keys(off.patch, 'ticket/', 'del')).toEqual([`ticket/${looseTicket.id}`]);
  });

  it('puts each ticket as GET /tickets/{id} answers it, and again when its contact, queue, holder, connection or tags change', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const admin = desk.adminSession.token;
    const from = newNumber();
    await desk.say(from, 'hello', { name: 'Rita' });
    const ticket = (await desk.ticketOf(from))!;
    // The attendant takes it and an admin tags it: every relation of the value is filled.
    expect((await t.request('PUT', `/tickets/${ticket.id}`, { token: desk.userSession.token, body: { status: 'open' } })).status).toBe(200);
    const tag = await t.request('POST', '/tags', { token: admin, body: { name: `Vip ${ticket.id}`, color: '#ff0000' } });
    expect((await t.request('PUT', `/ticket-tags/${ticket.id}/${tag.body.id}`, { token: admin })).status).toBe(200);

    const client = syncClient(t, desk.userSession.token);
    const expectSame = async () => {
      await client.pull();
      const rest = await t.request('GET', `/tickets/${ticket.id}`, { token: desk.userSession.token });
      expect(rest.status).toBe(200);
      expectOneReadModel(ticketSchema, rest.body, client.get(`ticket/${ticket.id}`));
      return rest.body as Ticket;
    };
    const first = await expectSame();
    expect(first).toMatchObject({ status: 'open', user: { id: desk.user.id }, queue: { id: desk.queues[0]!.id }, whatsapp: { id: desk.connectionId }, tags: [{ id: tag.body.id }] });

    // Each of these changes another row that the ticket's value shows; the ticket row stays as it was.
    const stamp = Date.now();
    expect((await t.request('PUT', `/contacts/${ticket.contactId}`, { token: admin, body: { name: 'Rita Lee' } })).status).toBe(200);
    expect((await t.request('PUT', `/tags/${tag.body.id}`, { token: admin, body: { name: `Gold ${stamp}`, color: '#00ff00' } })).status).toBe(200);
    expect((await t.request('PUT', `/queue/${desk.queues[0]!.id}`, { token: admin, body: { name: `Sales ${stamp}`, color: '#0000ff' } })).status).toBe(200);
    expect((await t.request('PUT', `/users/${desk.user.id}`, { token: admin, body: { name: `Ana ${stamp}` } })).status).toBe(200);
    expect((await t.request('PUT', `/whatsapp/${desk.connectionId}`, { token: admin, body: { name: `Line ${stamp}` } })).status).toBe(200);
    const second = await expectSame();
    expect(second.version).toBe(first.version);
    expect(second).toMatchObject({
      contact: { name: 'Rita Lee' },
      tags: [{ name: `Gold ${stamp}`, color: '#00ff00' }],
      queue: { name: `Sales ${stamp}`, color: '#0000ff' },
      user: { name: `Ana ${stamp}` },
      whatsapp: { name: `Line ${stamp}` },
    });
  });
});
