// Tickets, their contacts and recent messages in the client view, read through POST /sync/pull.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { newNumber, setupDesk } from '../../../test/conversation.ts';
import { tenant } from '../../db/tenant.ts';
import { ingest } from '../../inbound/ingest.ts';

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

  it('keeps the 50 most recent messages of a ticket', async () => {
    const desk = await setupDesk(t);
    const from = newNumber();
    const conn = { id: desk.connectionId, companyId: desk.companyId };
    for (let i = 0; i < 53; i++) {
      await ingest(t.deps, conn, { id: `M${i}-${from}`, from: { number: from }, fromMe: false, timestamp: new Date(Date.now() - (60 - i) * 1000).toISOString(), body: `m${i}` });
    }
    const { patch } = await pull(desk.adminSession.token, `admin-${++seq}`);
    const bodies = patch.filter((p) => p.key?.startsWith('message/')).map((p) => p.value!.body);
    expect(bodies).toHaveLength(50);
    expect(bodies).not.toContain('m0');
    expect(bodies).toContain('m52');
  });
});
