// The ticket and message mutators through POST /sync/push on a fresh database: each runs the same
// service as its REST route (the simulated contact receives the reply, the transitions hold), and a
// business refusal becomes the pusher's mutationError instead of failing the push.
import type { MutationError } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { tenant } from '../db/tenant.ts';
import { bumpVersion } from './version.ts';

describe.each(DIALECTS)('ticket mutators on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  let seq = 0;
  /** One client of its own per call sequence; mutation ids count from 1. */
  function pusher(token: string) {
    const group = `g-${dialect}-${++seq}`;
    const client = `c-${dialect}-${seq}`;
    let id = 0;
    return {
      client,
      async push(name: string, args: unknown) {
        const res = await t.request('POST', '/sync/push', {
          token,
          body: { pushVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID: group, mutations: [{ id: ++id, clientID: client, name, args, timestamp: Date.now() }] },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      },
      async errors(): Promise<MutationError[]> {
        const res = await t.request('POST', '/sync/pull', { token, body: { pullVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID: group, cookie: null } });
        expect(res.status).toBe(200);
        const puts = (res.body.patch as { op: string; key: string; value: MutationError }[]).filter((p) => p.op === 'put' && p.key.startsWith('mutationError/'));
        return puts.map((p) => p.value);
      },
    };
  }

  const ticketRow = (companyId: number, id: number) => tenant(t.db, companyId).selectFrom('tickets').selectAll().where('tickets.id', '=', id).executeTakeFirstOrThrow();

  it('accepts, answers (reaching the contact, signed), transfers and resolves with and without the farewell', async () => {
    const desk = await setupDesk(t, { queues: [{ greetingMessage: 'Sales here' }, { greetingMessage: 'Support here' }] });
    await tenant(t.db, desk.companyId).updateTable('whatsapps').set({ complationMessage: 'Thanks, bye!', ...bumpVersion() }).where('whatsapps.id', '=', desk.connectionId).execute();
    const from = newNumber();
    await desk.say(from, 'hi');
    await desk.say(from, '1');
    const { id } = (await desk.ticketOf(from))!;
    const me = pusher(desk.userSession.token);

    await me.push('acceptTicket', { ticketId: id, userId: desk.user.id });
    expect(await ticketRow(desk.companyId, id)).toMatchObject({ status: 'open', userId: desk.user.id });

    await me.push('sendMessage', { ticketId: id, localId: 'abcdef12', body: 'Hello from the desk', signMessage: true, userId: desk.user.id, sentAt: new Date().toISOString() });
    expect((await desk.outbox(from)).at(-1)!.body).toBe(`*${desk.user.name}*:\nHello from the desk`);

    await me.push('transferTicket', { ticketId: id, queueId: desk.queues[1]!.id, userId: null, whatsappId: null });
    expect(await ticketRow(desk.companyId, id)).toMatchObject({ status: 'pending', userId: null, queueId: desk.queues[1]!.id });

    // The admin takes it and closes it without the farewell: nothing more reaches the contact.
    const admin = pusher(desk.adminSession.token);
    await admin.push('acceptTicket', { ticketId: id, userId: desk.admin.id });
    const sentBefore = (await desk.outbox(from)).length;
    await admin.push('resolveTicket', { ticketId: id, userId: desk.admin.id, farewell: false });
    expect(await ticketRow(desk.companyId, id)).toMatchObject({ status: 'closed', userId: desk.admin.id });
    expect(await desk.outbox(from)).toHaveLength(sentBefore);
    expect(await admin.errors()).toEqual([]);

    // A new conversation closed with the farewell: the connection's closing message is sent.
    const other = newNumber();
    await desk.say(other, 'hello again');
    await desk.say(other, '1');
    const second = (await desk.ticketOf(other))!;
    await me.push('acceptTicket', { ticketId: second.id, userId: desk.user.id });
    await me.push('resolveTicket', { ticketId: second.id, userId: desk.user.id });
    expect((await desk.outbox(other)).at(-1)!.body).toBe('Thanks, bye!');
    expect(await me.errors()).toEqual([]);
  });

  it('records refusals as mutation errors: writing in a ticket not yours, acting as someone else, an empty body', async () => {
    const desk = await setupDesk(t, { queues: [{}, {}] });
    const from = newNumber();
    await desk.say(from, 'hi');
    await desk.say(from, '1');
    const { id } = (await desk.ticketOf(from))!;
    const me = pusher(desk.userSession.token);

    // Still pending: nobody may write in it.
    await me.push('sendMessage', { ticketId: id, localId: 'pending01', body: 'too early', signMessage: false, userId: desk.user.id, sentAt: new Date().toISOString() });
    // Accepting in another user's name.
    await me.push('acceptTicket', { ticketId: id, userId: desk.outsider.id });
    // A ticket outside the outsider's queues.
    await pusher(desk.outsiderSession.token).push('acceptTicket', { ticketId: id, userId: desk.outsider.id });
    await me.push('sendMessage', { ticketId: id, localId: 'blank0001', body: '   ', signMessage: false, userId: desk.user.id, sentAt: new Date().toISOString() });

    const errors = await me.errors();
    const byMutation = errors.sort((a, b) => a.mutationID - b.mutationID).map((e) => [e.name, e.code]);
    expect(byMutation).toEqual([
      ['sendMessage', 'ERR_NO_PERMISSION'],
      ['acceptTicket', 'ERR_NO_PERMISSION'],
      ['sendMessage', 'ERR_VALIDATION'],
    ]);
    expect(await ticketRow(desk.companyId, id)).toMatchObject({ status: 'pending', userId: null });
    expect((await desk.outbox(from)).some((m) => m.body === 'too early')).toBe(false);
  });

  it('cannot touch another company’s ticket', async () => {
    const mine = await setupDesk(t, { queues: [{}] });
    const theirs = await setupDesk(t, { queues: [{}] });
    const from = newNumber();
    await theirs.say(from, 'hi');
    const { id } = (await theirs.ticketOf(from))!;
    const admin = pusher(mine.adminSession.token);
    await admin.push('resolveTicket', { ticketId: id, userId: mine.admin.id });
    expect((await admin.errors()).map((e) => e.code)).toEqual(['ERR_NO_TICKET_FOUND']);
    expect((await ticketRow(theirs.companyId, id)).status).not.toBe('closed');
  });

  it('resends a failed message only in the ticket it names', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const other = await setupDesk(t, { queues: [{}] });
    const ticketFor = async (d: typeof desk) => {
      const from = newNumber();
      await d.say(from, 'hi');
      const { id } = (await d.ticketOf(from))!;
      expect((await t.request('PUT', `/tickets/${id}`, { token: d.adminSession.token, body: { status: 'open' } })).status).toBe(200);
      return id;
    };
    const [ticket, elsewhere, foreign] = [await ticketFor(desk), await ticketFor(desk), await ticketFor(other)];
    const sent = await t.request('POST', `/messages/${ticket}`, { token: desk.adminSession.token, body: { body: 'This one fails' } });
    await t.deps.outbox.idle();
    const message = () => tenant(t.db, desk.companyId).selectFrom('messages').selectAll().where('messages.id', '=', sent.body.id).executeTakeFirstOrThrow();
    await tenant(t.db, desk.companyId).updateTable('messages').set({ sendStatus: 'failed', ...bumpVersion() }).where('messages.id', '=', sent.body.id).execute();
    const admin = pusher(desk.adminSession.token);
    // The client keys the message under its ticket (message/<ticketId>/<id>): named under another
    // ticket, of the company or not, or an unknown one, it is not that message.
    for (const ticketId of [elsewhere, foreign, 2147483647]) await admin.push('resendMessage', { ticketId, messageId: sent.body.id });
    expect((await admin.errors()).map((e) => e.code)).toEqual(['ERR_NOT_FOUND', 'ERR_NOT_FOUND', 'ERR_NOT_FOUND']);
    expect((await message()).sendStatus).toBe('failed');
    await admin.push('resendMessage', { ticketId: ticket, messageId: sent.body.id });
    expect(await admin.errors()).toHaveLength(3);
    expect((await message()).sendStatus).not.toBe('failed');
  });
});
