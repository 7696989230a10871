// Internal chats in the client view, read through POST /sync/pull: each chat is what GET /chats/{id}
// answers and each recent message what GET /chats/{id}/messages answers for it.
import { chatMessageSchema, chatSchema, type ChatMessage } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { expectOneReadModel, syncClient } from '../../../test/read-model.ts';
import { seedTenant, seedUser } from '../../../test/seed.ts';

describe.each(DIALECTS)('chats in the sync view on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('puts each chat and chat message as the REST routes answer them, members and unread counts included', async () => {
    const a = await seedTenant(t);
    // Two members with one name: members are listed by name, then id, on both transports.
    const twin = await seedUser(t, a.company.id, { name: a.user.name });
    const admin = a.adminSession.token;
    const chat = (await t.request('POST', '/chats', { token: admin, body: { title: 'Ops', users: [{ id: a.user.id }, { id: twin.id }] } })).body;
    await t.request('POST', `/chats/${chat.id}/messages`, { token: admin, body: { message: 'Hello' } });
    await t.request('POST', `/chats/${chat.id}/messages`, { token: a.userSession.token, body: { message: 'Hi!' } });

    const client = syncClient(t, a.userSession.token);
    await client.pull();
    const rest = await t.request('GET', `/chats/${chat.id}`, { token: a.userSession.token });
    expect(rest.status).toBe(200);
    expectOneReadModel(chatSchema, rest.body, client.get(`chat/${chat.id}`));
    expect(rest.body.users).toHaveLength(3);

    const page = await t.request('GET', `/chats/${chat.id}/messages`, { token: a.userSession.token });
    const messages = page.body.records as ChatMessage[];
    expect(messages.map((m) => m.message)).toEqual(['Hi!', 'Hello']);
    for (const m of messages) expectOneReadModel(chatMessageSchema, m, client.get(`chatMessage/${chat.id}/${m.id}`));
  });
});
