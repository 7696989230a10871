import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { tenant } from '../db/tenant.ts';
import { ingest } from './ingest.ts';

describe.each(DIALECTS)('inbound pipeline on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  it('an inbound message makes a pending ticket visible to its queue’s attendants and not to others', async () => {
    const desk = await setupDesk(t, { queues: [{ greetingMessage: null }] });
    const from = newNumber();
    await desk.say(from, 'Hello, I need help', { name: 'Maria Silva' });
    const ticket = await desk.ticketOf(from);
    expect(ticket).toMatchObject({ status: 'pending', queueId: desk.queues[0]!.id, userId: null, unreadMessages: 1, lastMessage: 'Hello, I need help' });

    const mine = await t.request('GET', '/tickets?status=pending', { token: desk.userSession.token });
    expect(mine.status).toBe(200);
    expect(mine.body.tickets.map((x: { id: number }) => x.id)).toContain(ticket!.id);
    const shown = mine.body.tickets.find((x: { id: number }) => x.id === ticket!.id);
    expect(shown).toMatchObject({ uuid: ticket!.uuid, status: 'pending', contact: { name: 'Maria Silva', number: from }, queue: { id: desk.queues[0]!.id }, whatsapp: { id: desk.connectionId, status: 'CONNECTED' }, tags: [] });

    const theirs = await t.request('GET', '/tickets?status=pending', { token: desk.outsiderSession.token });
    expect(theirs.body.tickets.map((x: { id: number }) => x.id)).not.toContain(ticket!.id);
    const denied = await t.request('GET', `/tickets/${ticket!.id}`, { token: desk.outsiderSession.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('ERR_NO_PERMISSION');
    expect((await t.request('GET', `/tickets/u/${ticket!.uuid}`, { token: desk.userSession.token })).body.id).toBe(ticket!.id);

    // Contact stored with its JID; the number digits as the key.
    const contact = await tenant(t.db, desk.companyId).selectFrom('contacts').selectAll().where('contacts.number', '=', from).executeTakeFirstOrThrow();
    expect(contact.jid).toBe(`${from}@s.whatsapp.net`);
  });

  it('200 concurrent messages from 20 contacts make exactly 20 tickets and 200 messages', async () => {
    const desk = await setupDesk(t);
    const numbers = Array.from({ length: 20 }, () => newNumber());
    await Promise.all(Array.from({ length: 200 }, (_, i) => desk.say(numbers[i % 20]!, `message ${i}`)));
    const db = tenant(t.db, desk.companyId);
    const tickets = await db.selectFrom('tickets').select(['tickets.id', 'tickets.unreadMessages']).where('tickets.whatsappId', '=', desk.connectionId).execute();
    expect(tickets).toHaveLength(20);
    expect(tickets.every((x) => x.unreadMessages === 10)).toBe(true);
    const count = await db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).where('messages.whatsappId', '=', desk.connectionId).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(200);
    const contacts = await db.selectFrom('contacts').select('contacts.id').where('contacts.number', 'in', numbers).execute();
    expect(contacts).toHaveLength(20);
    // Heavy on purpose (200 HTTP deliveries): a generous timeout for a busy 2-core CI machine.
  }, 180_000);

  it('a redelivered message is ignored, also when the deliveries race', async () => {
    const desk = await setupDesk(t);
    const from = newNumber();
    const id = await desk.say(from, 'only once');
    await desk.say(from, 'only once', { id });
    await Promise.all([desk.say(from, 'twice', { id: 'RACE1' }), desk.say(from, 'twice', { id: 'RACE1' }), desk.say(from, 'twice', { id: 'RACE1' })]);
    const ticket = await desk.ticketOf(from);
    const messages = await tenant(t.db, desk.companyId).selectFrom('messages').select('messages.wid').where('messages.ticketId', '=', ticket!.id).execute();
    expect(messages.map((m) => m.wid).sort()).toEqual([id, 'RACE1'].sort());
    expect(ticket!.unreadMessages).toBe(2);
    const direct = await ingest(t.deps, { id: desk.connectionId, companyId: desk.companyId }, { id, from: { number: from }, fromMe: false, timestamp: new Date().toISOString(), body: 'only once' });
    expect(direct.status).toBe('duplicate');
  });

  it('a contact known only by its LID gets a ticket; the phone number replaces the LID digits once known', async () => {
    const desk = await setupDesk(t);
    const conn = { id: desk.connectionId, companyId: desk.companyId };
    const lid = `${Date.now()}99@lid`;
    const first = await ingest(t.deps, conn, { id: `L1-${lid}`, from: { lid, name: 'Lid Only' }, fromMe: false, timestamp: new Date().toISOString(), body: 'hi' });
    expect(first.status).toBe('stored');
    const number = newNumber();
    const second = await ingest(t.deps, conn, { id: `L2-${lid}`, from: { lid, jid: `${number}@s.whatsapp.net`, number }, fromMe: false, timestamp: new Date().toISOString(), body: 'again' });
    expect(second).toMatchObject({ status: 'stored', ticketId: first.status === 'stored' ? first.ticketId : -1 });
    const contact = await tenant(t.db, desk.companyId).selectFrom('contacts').selectAll().where('contacts.lid', '=', lid).executeTakeFirstOrThrow();
    expect(contact).toMatchObject({ number, jid: `${number}@s.whatsapp.net`, name: 'Lid Only' });
  });

  it('acks only move forward', async () => {
    const desk = await setupDesk(t);
    const from = newNumber();
    await desk.say(from, 'hi');
    const ticket = await desk.ticketOf(from);
    await t.request('PUT', `/tickets/${ticket!.id}`, { token: desk.adminSession.token, body: { status: 'open' } });
    const sent = await t.request('POST', `/messages/${ticket!.id}`, { token: desk.adminSession.token, body: { body: 'Hello!' } });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ fromMe: true, ack: 0, sendStatus: 'queued', body: 'Hello!' });
    const [out] = await desk.outbox(from);
    const ack = (n: number) => t.request('POST', '/simulator/acks', { token: desk.adminSession.token, body: { connectionId: desk.connectionId, messageId: out!.id, ack: n } });
    await ack(3);
    await ack(2);
    const row = await tenant(t.db, desk.companyId).selectFrom('messages').select('messages.ack').where('messages.id', '=', sent.body.id).executeTakeFirstOrThrow();
    expect(row.ack).toBe(3);
  });

  it('stores inbound media under the company folder and serves it only to who sees the ticket', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const from = newNumber();
    await desk.say(from, 'look', { mediaType: 'image', fileName: 'photo.jpg' });
    const ticket = await desk.ticketOf(from);
    const page = await t.request('GET', `/messages/${ticket!.id}`, { token: desk.userSession.token });
    const message = page.body.messages[0];
    expect(message).toMatchObject({ mediaType: 'image', fromMe: false });
    expect(message.mediaUrl).toMatch(new RegExp(`^/media/${desk.companyId}/tickets/${ticket!.id}/`));
    const res = await t.app.request(message.mediaUrl, { headers: { authorization: `Bearer ${desk.userSession.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect((await t.app.request(message.mediaUrl, { headers: { authorization: `Bearer ${desk.outsiderSession.token}` } })).status).toBe(403);
    const other = await setupDesk(t);
    expect((await t.app.request(message.mediaUrl, { headers: { authorization: `Bearer ${other.adminSession.token}` } })).status).toBe(404);
  });
});
