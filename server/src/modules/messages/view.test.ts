// Messages in the client view, read through POST /sync/pull: the newest 50 of each active ticket,
// each what GET /messages/{ticketId} answers for it, also after its contact or quoted message change.
import { messageSchema, type Message } from '@zapdesk/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { newNumber, setupDesk } from '../../../test/conversation.ts';
import { expectOneReadModel, syncClient } from '../../../test/read-model.ts';
import { ingest } from '../../inbound/ingest.ts';

describe.each(DIALECTS)('messages in the sync view on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  it('keeps the 50 most recent messages of a ticket', async () => {
    const desk = await setupDesk(t);
    const from = newNumber();
    const conn = { id: desk.connectionId, companyId: desk.companyId };
    for (let i = 0; i < 53; i++) {
      await ingest(t.deps, conn, { id: `M${i}-${from}`, from: { number: from }, fromMe: false, timestamp: new Date(Date.now() - (60 - i) * 1000).toISOString(), body: `m${i}` });
    }
    const client = syncClient(t, desk.adminSession.token);
    const bodies = [...(await client.pull()).puts.keys()].filter((k) => k.startsWith('message/')).map((k) => (client.get(k) as Message).body);
    expect(bodies).toHaveLength(50);
    expect(bodies).not.toContain('m0');
    expect(bodies).toContain('m52');
  });

  it('puts each message as GET /messages/{ticketId} answers it, and again when its contact or quoted message change', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const token = desk.userSession.token;
    const from = newNumber();
    await desk.say(from, 'hello there', { name: 'Rita' });
    const ticket = (await desk.ticketOf(from))!;
    await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'open' } });
    const first = await t.request('POST', `/messages/${ticket.id}`, { token, body: { body: 'One moment' } });
    const reply = await t.request('POST', `/messages/${ticket.id}`, { token, body: { body: 'Found it', quotedMsg: first.body.id } });
    expect(reply.status).toBe(201);
    await desk.outbox(from);

    const client = syncClient(t, token);
    const expectSame = async () => {
      await client.pull();
      // The admin reads: the holder's GET would mark the page read after answering it.
      const rest = await t.request('GET', `/messages/${ticket.id}`, { token: desk.adminSession.token });
      expect(rest.status).toBe(200);
      const messages = rest.body.messages as Message[];
      expect(messages).toHaveLength(3);
      for (const m of messages) expectOneReadModel(messageSchema, m, client.get(`message/${ticket.id}/${m.id}`));
      return messages;
    };
    const [inbound, , quoting] = await expectSame();
    expect(inbound).toMatchObject({ fromMe: false, contact: { name: 'Rita' }, sendStatus: null });
    expect(quoting).toMatchObject({ fromMe: true, ack: 1, sendStatus: 'sent', quotedMsg: { id: first.body.id, isDeleted: false } });

    // Neither change touches the rows of the messages that show them.
    expect((await t.request('PUT', `/contacts/${ticket.contactId}`, { token, body: { name: 'Rita Lee' } })).status).toBe(200);
    expect((await t.request('DELETE', `/messages/${first.body.id}`, { token })).status).toBe(200);
    const [inboundAfter, , quotingAfter] = await expectSame();
    expect(inboundAfter).toMatchObject({ contact: { name: 'Rita Lee' }, version: inbound!.version });
    expect(quotingAfter).toMatchObject({ quotedMsg: { id: first.body.id, isDeleted: true }, version: quoting!.version });
  });

  it('puts a message again when the message it quotes, in another ticket, changes', async () => {
    // The view keeps each ticket's window under that ticket's message mark (view.ts); a quote of an
    // earlier ticket's message must not be kept under it.
    const desk = await setupDesk(t);
    const token = desk.adminSession.token;
    const from = newNumber();
    const conn = { id: desk.connectionId, companyId: desk.companyId };
    await desk.say(from, 'my order is late');
    const first = (await desk.ticketOf(from))!;
    expect((await t.request('PUT', `/tickets/${first.id}`, { token, body: { status: 'open' } })).status).toBe(200);
    const answer = await t.request('POST', `/messages/${first.id}`, { token, body: { body: 'It leaves today' } });
    expect(answer.status).toBe(201);
    const [sent] = await desk.outbox(from);
    expect((await t.request('PUT', `/tickets/${first.id}`, { token, body: { status: 'closed' } })).status).toBe(200);
    await ingest(t.deps, conn, { id: `Q-${from}`, from: { number: from }, fromMe: false, timestamp: new Date().toISOString(), body: 'it did not', quotedId: sent!.id });
    const second = (await desk.ticketOf(from))!;
    expect(second.id).not.toBe(first.id);

    const client = syncClient(t, token);
    await client.pull();
    const quotingKey = (await t.db.selectFrom('messages').select('id').where('wid', '=', `Q-${from}`).executeTakeFirstOrThrow()).id;
    const quoting = () => client.get(`message/${second.id}/${quotingKey}`) as Message;
    expect(quoting().quotedMsg).toMatchObject({ id: answer.body.id, body: 'It leaves today' });

    // The quoted message changes (as an edit does): only the first ticket's mark moves.
    await t.db.updateTable('messages').set({ body: 'It leaves tomorrow', version: sql`version + 1` }).where('id', '=', answer.body.id).execute();
    t.deps.realtime.pokeCompany(desk.companyId);
    await client.pull();
    expect(quoting().quotedMsg).toMatchObject({ id: answer.body.id, body: 'It leaves tomorrow' });
  });
});
