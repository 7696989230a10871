// Chats, chat messages, announcements and ticket notes in the client view, read through
// POST /sync/pull as the web reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { loginAs, seedSuper, seedTenant, seedTicket, seedUser } from '../../../test/seed.ts';

type Patch = { op: string; key?: string; value?: Record<string, unknown> }[];

describe.each(DIALECTS)('daily tools in the sync view on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  let seq = 0;
  const pull = async (token: string, clientGroupID: string, cookie: unknown = null) => {
    const res = await t.request('POST', '/sync/pull', { token, body: { pullVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID, cookie } });
    expect(res.status).toBe(200);
    return res.body as { cookie: unknown; patch: Patch };
  };
  const puts = (patch: Patch, prefix: string) => patch.filter((p) => p.op === 'put' && p.key?.startsWith(prefix));
  const keys = (patch: Patch, prefix: string) => puts(patch, prefix).map((p) => p.key).sort();

  it('gives members their chats with unread counts and recent messages; others nothing', async () => {
    const a = await seedTenant(t);
    const outsider = await loginAs(t, await seedUser(t, a.company.id));
    const chat = (await t.request('POST', '/chats', { token: a.adminSession.token, body: { title: 'Ops', users: [{ id: a.user.id }] } })).body;
    const msg = (await t.request('POST', `/chats/${chat.id}/messages`, { token: a.adminSession.token, body: { message: 'Hello' } })).body;

    const group = `member-${++seq}`;
    const first = await pull(a.userSession.token, group);
    expect(keys(first.patch, 'chat/')).toEqual([`chat/${chat.id}`]);
    const value = puts(first.patch, 'chat/')[0]!.value as { users: { userId: number; unreads: number }[]; lastMessage: string };
    expect(value.lastMessage).toBe('Hello');
    expect(value.users.find((u) => u.userId === a.user.id)?.unreads).toBe(1);
    expect(puts(first.patch, 'chatMessage/')).toEqual([
      expect.objectContaining({ key: `chatMessage/${chat.id}/${msg.id}`, value: expect.objectContaining({ message: 'Hello', sender: { id: a.admin.id, name: a.admin.name } }) }),
    ]);
    const other = await pull(outsider.token, `outsider-${seq}`);
    expect(keys(other.patch, 'chat')).toEqual([]);

    // Reading zeroes the unread count: the chat is sent again.
    await t.request('POST', `/chats/${chat.id}/read`, { token: a.userSession.token });
    const second = await pull(a.userSession.token, group, first.cookie);
    const reread = puts(second.patch, 'chat/')[0]!.value as { users: { userId: number; unreads: number }[] };
    expect(reread.users.find((u) => u.userId === a.user.id)?.unreads).toBe(0);

    // Removed from the chat: the chat and its messages leave the view.
    await t.request('PUT', `/chats/${chat.id}`, { token: a.adminSession.token, body: { users: [{ id: outsider.body.user.id }] } });
    const third = await pull(a.userSession.token, group, second.cookie);
    expect(third.patch).toContainEqual({ op: 'del', key: `chat/${chat.id}` });
    expect(third.patch).toContainEqual({ op: 'del', key: `chatMessage/${chat.id}/${msg.id}` });
  });

  it('keeps only the 50 most recent messages of a chat', async () => {
    const a = await seedTenant(t);
    const chat = (await t.request('POST', '/chats', { token: a.adminSession.token, body: { title: 'Busy', users: [{ id: a.user.id }] } })).body;
    const ids: number[] = [];
    for (let i = 0; i < 52; i++) ids.push((await t.request('POST', `/chats/${chat.id}/messages`, { token: a.adminSession.token, body: { message: `m${i}` } })).body.id);
    const res = await pull(a.userSession.token, `busy-${++seq}`);
    const got = keys(res.patch, 'chatMessage/');
    expect(got).toHaveLength(50);
    expect(got).not.toContain(`chatMessage/${chat.id}/${ids[0]}`);
    expect(got).toContain(`chatMessage/${chat.id}/${ids[51]}`);
  });

  it('shows every company the active announcements and the super-admin all of them', async () => {
    const { session } = await seedSuper(t);
    const active = (await t.request('POST', '/announcements', { token: session.token, body: { title: 'Hello all', text: 'x' } })).body;
    const draft = (await t.request('POST', '/announcements', { token: session.token, body: { title: 'Draft', text: 'x', status: false } })).body;
    const a = await seedTenant(t);
    const res = await pull(a.userSession.token, `ann-${++seq}`);
    expect(keys(res.patch, 'announcement/')).toContain(`announcement/${active.id}`);
    expect(keys(res.patch, 'announcement/')).not.toContain(`announcement/${draft.id}`);
    expect(puts(res.patch, `announcement/${active.id}`)[0]!.value).toMatchObject({ title: 'Hello all', priority: 3, status: true });
    const superPull = await pull(session.token, `ann-super-${seq}`);
    expect(keys(superPull.patch, 'announcement/')).toEqual(expect.arrayContaining([`announcement/${active.id}`, `announcement/${draft.id}`]));
  });

  it('gives ticket notes to those who may see the ticket', async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    const colleague = await loginAs(t, await seedUser(t, a.company.id));
    const ticket = await seedTicket(t, a.company.id, { userId: a.user.id });
    const note = (await t.request('POST', '/ticket-notes', { token: a.userSession.token, body: { note: 'Call at 5', ticketId: ticket.id, contactId: ticket.contactId } })).body;
    const mine = await pull(a.userSession.token, `notes-${++seq}`);
    expect(puts(mine.patch, 'ticketNote/')).toEqual([
      expect.objectContaining({ key: `ticketNote/${note.id}`, value: expect.objectContaining({ note: 'Call at 5', ticketId: ticket.id, user: { id: a.user.id, name: a.user.name } }) }),
    ]);
    expect(keys((await pull(a.adminSession.token, `notes-admin-${seq}`)).patch, 'ticketNote/')).toEqual([`ticketNote/${note.id}`]);
    expect(keys((await pull(colleague.token, `notes-colleague-${seq}`)).patch, 'ticketNote/')).toEqual([]);
    expect(keys((await pull(b.adminSession.token, `notes-b-${seq}`)).patch, 'ticketNote/')).toEqual([]);
  });
});
