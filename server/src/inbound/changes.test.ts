// Edits and revokes (spec/02 §2.2 "edited and deleted marks"; Baileys' MESSAGE_EDIT and REVOKE):
// the simulated contact changes a message it sent, and REST and the sync view show it, version moved.
import { messageKey, messageSchema } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { expectOneReadModel, syncClient } from '../../test/read-model.ts';

describe.each(DIALECTS)('edited and deleted messages on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  const messagesOf = async (token: string, ticketId: number) => {
    const res = await t.request('GET', `/messages/${ticketId}`, { token });
    expect(res.status).toBe(200);
    return res.body.messages as { id: number; wid: string; body: string; isEdited: boolean; isDeleted: boolean; version: number }[];
  };

  it('an edit shows the new text marked edited, a revoke marks it deleted; both reach a synced client', async () => {
    const desk = await setupDesk(t, { queues: [{ greetingMessage: null }] });
    const token = desk.adminSession.token;
    const from = newNumber();
    const first = await desk.say(from, 'I want 3 boxes');
    const second = await desk.say(from, 'and a pen');
    const ticket = (await desk.ticketOf(from))!;
    const client = syncClient(t, token);
    await client.pull();
    const [before] = (await messagesOf(token, ticket.id)).filter((m) => m.wid === first);

    const edit = await t.request('POST', '/simulator/edits', { token, body: { connectionId: desk.connectionId, messageId: first, body: 'I want 4 boxes' } });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(edit.body).toEqual({ id: first, kind: 'edit' });
    const edited = (await messagesOf(token, ticket.id)).find((m) => m.wid === first)!;
    expect(edited).toMatchObject({ body: 'I want 4 boxes', isEdited: true, isDeleted: false });
    expect(edited.version).toBeGreaterThan(before!.version);
    const patch = await client.pull();
    const key = messageKey(ticket.id, edited.id);
    expect(patch.puts.has(key)).toBe(true);
    expectOneReadModel(messageSchema, edited, client.get(key));

    const revoke = await t.request('POST', '/simulator/revokes', { token, body: { connectionId: desk.connectionId, messageId: second } });
    expect(revoke.body).toEqual({ id: second, kind: 'revoke' });
    const deleted = (await messagesOf(token, ticket.id)).find((m) => m.wid === second)!;
    expect(deleted).toMatchObject({ isDeleted: true });
    expect((await client.pull()).puts.get(messageKey(ticket.id, deleted.id))).toMatchObject({ isDeleted: true });
    // The list line no longer shows the deleted text.
    expect((await t.request('GET', `/tickets/${ticket.id}`, { token })).body.lastMessage).toBe('');

    // A deleted message is not edited back to life.
    await t.request('POST', '/simulator/edits', { token, body: { connectionId: desk.connectionId, messageId: second, body: 'back' } });
    expect((await messagesOf(token, ticket.id)).find((m) => m.wid === second)).toMatchObject({ isDeleted: true, body: 'and a pen' });
  });

  it('refuses unknown messages, bad bodies and other companies’ connections with catalogue errors', async () => {
    const desk = await setupDesk(t);
    const other = await setupDesk(t);
    const token = desk.adminSession.token;
    const from = newNumber();
    const id = await desk.say(from, 'hi');

    const unknown = await t.request('POST', '/simulator/edits', { token, body: { connectionId: desk.connectionId, messageId: 'NOPE', body: 'x' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('ERR_NOT_FOUND');
    const empty = await t.request('POST', '/simulator/edits', { token, body: { connectionId: desk.connectionId, messageId: id, body: '  ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('ERR_VALIDATION');
    const missing = await t.request('POST', '/simulator/revokes', { token, body: { connectionId: desk.connectionId } });
    expect(missing.body.error).toBe('ERR_VALIDATION');
    const foreign = await t.request('POST', '/simulator/revokes', { token: other.adminSession.token, body: { connectionId: desk.connectionId, messageId: id } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_WAPP_FOUND');
    const ticket = (await desk.ticketOf(from))!;
    expect((await messagesOf(token, ticket.id)).find((m) => m.wid === id)).toMatchObject({ body: 'hi', isEdited: false, isDeleted: false });
  });
});
