import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { loginAs, seedTenant, seedUser } from '../../../test/seed.ts';
import { sliceBesideAnotherWrite } from '../../../test/slices.ts';
import { inSlices } from '../../db/slices.ts';
import { tenant } from '../../db/tenant.ts';
import { emptyChatSlice } from './service.ts';

describe.each(DIALECTS)('internal chat on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  async function setup() {
    const tenant = await seedTenant(t);
    const third = await seedUser(t, tenant.company.id, { name: 'Zoe Third' });
    return { ...tenant, third, thirdSession: await loginAs(t, third) };
  }
  type Member = { userId: number; unreads: number };
  const unreadsOf = (chat: { users: Member[] }) => Object.fromEntries(chat.users.map((u) => [u.userId, u.unreads]));

  it('creates a chat with the owner as member and lists it for members only', async () => {
    const { admin, user, adminSession, userSession, thirdSession } = await setup();
    const created = await t.request('POST', '/chats', { token: adminSession.token, body: { title: ' Team ', users: [{ id: user.id }] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: 'Team', ownerId: admin.id, lastMessage: '' });
    expect(created.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.body.users.map((u: Member) => u.userId).sort()).toEqual([admin.id, user.id].sort());
    expect(created.body.users[0]).toMatchObject({ unreads: 0, user: { id: expect.any(Number), name: expect.any(String) } });

    const list = await t.request('GET', '/chats', { token: userSession.token });
    expect(list.body).toMatchObject({ hasMore: false, records: [{ id: created.body.id, title: 'Team' }] });
    expect((await t.request('GET', '/chats?searchParam=nothing', { token: userSession.token })).body.records).toEqual([]);
    expect((await t.request('GET', `/chats/${created.body.id}`, { token: userSession.token })).body.id).toBe(created.body.id);
    expect((await t.request('GET', `/chats/${created.body.uuid}`, { token: userSession.token })).body.id).toBe(created.body.id);
    expect((await t.request('GET', '/chats', { token: thirdSession.token })).body.records).toEqual([]);
    for (const [method, url, body] of [
      ['GET', `/chats/${created.body.id}`],
      ['GET', `/chats/${created.body.uuid}`],
      ['GET', `/chats/${created.body.id}/messages`],
      ['POST', `/chats/${created.body.id}/messages`, { message: 'hi' }],
      ['POST', `/chats/${created.body.id}/read`],
      ['PUT', `/chats/${created.body.id}`, { title: 'Mine' }],
      ['DELETE', `/chats/${created.body.id}`],
    ] as const) {
      expect((await t.request(method, url, { token: thirdSession.token, body })).status, `${method} ${url}`).toBe(404);
    }
  });

  it('counts unreads per member and zeroes only the reader', async () => {
    const { admin, user, third, adminSession, userSession, thirdSession } = await setup();
    const chat = (await t.request('POST', '/chats', { token: adminSession.token, body: { title: 'Ops', users: [{ id: user.id }, { id: third.id }] } })).body;
    const sent = await t.request('POST', `/chats/${chat.id}/messages`, { token: adminSession.token, body: { message: '  Hello team  ' } });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ chatId: chat.id, message: 'Hello team', senderId: admin.id, sender: { id: admin.id, name: admin.name } });
    await t.request('POST', `/chats/${chat.id}/messages`, { token: adminSession.token, body: { message: 'Second' } });
    await t.request('POST', `/chats/${chat.id}/messages`, { token: userSession.token, body: { message: 'Reply' } });

    let current = (await t.request('GET', `/chats/${chat.id}`, { token: adminSession.token })).body;
    expect(unreadsOf(current)).toEqual({ [admin.id]: 1, [user.id]: 2, [third.id]: 3 });
    expect(current.lastMessage).toBe('Reply');

    const read = await t.request('POST', `/chats/${chat.id}/read`, { token: thirdSession.token, body: { userId: admin.id } });
    expect(read.status).toBe(200);
    expect(unreadsOf(read.body)).toEqual({ [admin.id]: 1, [user.id]: 2, [third.id]: 0 });
    current = (await t.request('GET', '/chats', { token: userSession.token })).body.records[0];
    expect(unreadsOf(current)[user.id]).toBe(2);

    const page = await t.request('GET', `/chats/${chat.id}/messages`, { token: thirdSession.token });
    expect(page.body.hasMore).toBe(false);
    expect(page.body.records.map((m: { message: string }) => m.message)).toEqual(['Reply', 'Second', 'Hello team']);
  });

  it('pages messages 20 at a time, newest first, and moves the active chat to the top', async () => {
    const { user, adminSession } = await setup();
    const token = adminSession.token;
    const older = (await t.request('POST', '/chats', { token, body: { title: 'Older', users: [{ id: user.id }] } })).body;
    const chat = (await t.request('POST', '/chats', { token, body: { title: 'Busy', users: [{ id: user.id }] } })).body;
    for (let i = 0; i < 21; i++) await t.request('POST', `/chats/${chat.id}/messages`, { token, body: { message: `m${i}` } });
    const first = await t.request('GET', `/chats/${chat.id}/messages?pageNumber=1`, { token });
    expect(first.body.records).toHaveLength(20);
    expect(first.body.records[0].message).toBe('m20');
    expect(first.body.hasMore).toBe(true);
    const second = await t.request('GET', `/chats/${chat.id}/messages?pageNumber=2`, { token });
    expect(second.body).toMatchObject({ hasMore: false, records: [{ message: 'm0' }] });
    await t.request('POST', `/chats/${older.id}/messages`, { token, body: { message: 'wake up' } });
    const list = await t.request('GET', '/chats', { token });
    expect(list.body.records.map((c: { id: number }) => c.id)).toEqual([older.id, chat.id]);
  });

  it('validates title, users and messages', async () => {
    const { user, adminSession } = await setup();
    const token = adminSession.token;
    expect((await t.request('POST', '/chats', { token, body: { users: [{ id: user.id }] } })).body.issues[0].path).toBe('title');
    expect((await t.request('POST', '/chats', { token, body: { title: 'x', users: [] } })).body.issues[0].path).toBe('users');
    expect((await t.request('POST', '/chats', { token, body: { title: 'x' } })).status).toBe(400);
    expect((await t.request('POST', '/chats', { token, body: '{' })).body.error).toBe('ERR_INVALID_JSON');
    const chat = (await t.request('POST', '/chats', { token, body: { title: 'x', users: [{ id: user.id }] } })).body;
    const blank = await t.request('POST', `/chats/${chat.id}/messages`, { token, body: { message: '   ' } });
    expect(blank.status).toBe(400);
    expect(blank.body.issues[0].path).toBe('message');
    expect((await t.request('GET', `/chats/${chat.id}`, { token })).body.lastMessage).toBe('');
    expect((await t.request('GET', '/chats/not-a-chat', { token })).status).toBe(404);
    expect((await t.request('GET', `/chats/${chat.id}/messages?pageNumber=0`, { token })).status).toBe(400);
  });

  it('lets only the owner edit members and title, and delete', async () => {
    const { admin, user, third, adminSession, userSession } = await setup();
    const chat = (await t.request('POST', '/chats', { token: adminSession.token, body: { title: 'Plan', users: [{ id: user.id }] } })).body;
    await t.request('POST', `/chats/${chat.id}/messages`, { token: adminSession.token, body: { message: 'one' } });
    expect((await t.request('PUT', `/chats/${chat.id}`, { token: userSession.token, body: { title: 'Hijack' } })).status).toBe(403);
    expect((await t.request('DELETE', `/chats/${chat.id}`, { token: userSession.token })).status).toBe(403);
    // Refused before anything went: its message is still there.
    expect(await t.db.selectFrom('chatMessages').select('message').where('chatId', '=', chat.id).execute()).toEqual([{ message: 'one' }]);

    // The owner stays even when left out; kept members keep their unreads.
    const updated = await t.request('PUT', `/chats/${chat.id}`, { token: adminSession.token, body: { title: 'Plan B', users: [{ id: user.id }, { id: third.id }] } });
    expect(updated.status).toBe(200);
    expect(updated.body.title).toBe('Plan B');
    expect(unreadsOf(updated.body)).toEqual({ [admin.id]: 0, [user.id]: 1, [third.id]: 0 });
    const shrunk = await t.request('PUT', `/chats/${chat.id}`, { token: adminSession.token, body: { users: [{ id: third.id }] } });
    expect(unreadsOf(shrunk.body)).toEqual({ [admin.id]: 0, [third.id]: 0 });
    expect((await t.request('GET', `/chats/${chat.id}`, { token: userSession.token })).status).toBe(404);

    expect((await t.request('DELETE', `/chats/${chat.id}`, { token: adminSession.token })).status).toBe(200);
    expect((await t.request('GET', `/chats/${chat.id}`, { token: adminSession.token })).status).toBe(404);
    expect(await t.db.selectFrom('chatMessages').selectAll().where('chatId', '=', chat.id).execute()).toEqual([]);
  });

  it("empties a deleted chat's messages a slice at a time, other writes in between; another company's id touches nothing", async () => {
    const { company, adminSession, user } = await setup();
    const other = await seedTenant(t);
    const chat = (await t.request('POST', '/chats', { token: adminSession.token, body: { title: 'Long', users: [{ id: user.id }] } })).body;
    await tenant(t.db, company.id).insertInto('chatMessages', [0, 1, 2, 3, 4].map((i) => ({ chatId: chat.id, senderId: user.id, message: `m${i}` }))).execute();
    const left = async () => (await t.db.selectFrom('chatMessages').select('id').where('chatId', '=', chat.id).execute()).length;

    await inSlices(t.deps, (tx, limit) => emptyChatSlice(tx, other.company.id, chat.id, limit), 2);
    expect(await left()).toBe(5);

    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => emptyChatSlice(tx, company.id, chat.id, limit), async () => (await left()) > 0);
    expect(await left()).toBe(0);
    expect((await t.request('DELETE', `/chats/${chat.id}`, { token: adminSession.token })).status).toBe(200);
    expect((await t.request('GET', `/chats/${chat.id}`, { token: adminSession.token })).status).toBe(404);
  });

  it('refuses another company users and chats, and needs the internal chat plan', async () => {
    const mine = await setup();
    const theirs = await setup();
    const token = mine.adminSession.token;
    const foreign = await t.request('POST', '/chats', { token, body: { title: 'Leak', users: [{ id: theirs.user.id }] } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_USER_FOUND');
    expect(await t.db.selectFrom('chats').selectAll().where('companyId', '=', mine.company.id).execute()).toEqual([]);
    const theirChat = (await t.request('POST', '/chats', { token: theirs.adminSession.token, body: { title: 'Theirs', users: [{ id: theirs.user.id }] } })).body;
    expect((await t.request('GET', `/chats/${theirChat.id}`, { token })).status).toBe(404);
    expect((await t.request('POST', `/chats/${theirChat.id}/messages`, { token, body: { message: 'hi' } })).status).toBe(404);
    const mineChat = (await t.request('POST', '/chats', { token, body: { title: 'Mine', users: [{ id: mine.user.id }] } })).body;
    expect((await t.request('PUT', `/chats/${mineChat.id}`, { token, body: { users: [{ id: theirs.user.id }] } })).status).toBe(404);

    const noPlan = await seedTenant(t, { useInternalChat: 0 });
    const res = await t.request('GET', '/chats', { token: noPlan.adminSession.token });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
  });
});
