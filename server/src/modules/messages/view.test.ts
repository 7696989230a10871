// Messages in the client view, read through POST /sync/pull: the newest 50 of each active ticket,
// each what GET /messages/{ticketId} answers for it, also after its contact or quoted message change.
import { messageSchema, type Message } from '@zapdesk/sync';
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
});
