// The catalogue's database-creation codes and ERR_FETCH_WAPP_MSG (spec/01 §8), each raised where its
// meaning says, through the real interface: ERR_CREATING_CONTACT when a contact row is not written
// (it was ERR_CREATING_MESSAGE), ERR_CREATING_TICKET when a ticket row is not, ERR_CREATING_MESSAGE
// when a message row is not (both were a bare 500 ERR_INTERNAL_SERVER_ERROR), and nothing half
// written. The rows are refused by a trigger scoped to the test's company, on each dialect;
// deleting a message WhatsApp never received is ERR_FETCH_WAPP_MSG; a sign-up the platform closed
// (SIGNUP=0) is ERR_USER_CREATION_DISABLED.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { tenant } from '../db/tenant.ts';

describe.each(DIALECTS)('catalogue codes raised where they belong on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
    if (dialect === 'postgres') await sql`CREATE OR REPLACE FUNCTION test_skip_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`.execute(t.db);
  });
  afterAll(async () => t.close());

  /** Until the returned function runs, inserts into `table` for the company silently write nothing. */
  async function refuseInserts(table: 'contacts' | 'tickets' | 'messages', companyId: number): Promise<() => Promise<void>> {
    const name = `test_skip_${table}_${companyId}`;
    if (dialect === 'postgres') {
      await sql.raw(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW WHEN (NEW.company_id = ${companyId}) EXECUTE FUNCTION test_skip_row()`).execute(t.db);
      return async () => void (await sql.raw(`DROP TRIGGER ${name} ON ${table}`).execute(t.db));
    }
    await sql.raw(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} WHEN NEW.company_id = ${companyId} BEGIN SELECT RAISE(IGNORE); END`).execute(t.db);
    return async () => void (await sql.raw(`DROP TRIGGER ${name}`).execute(t.db));
  }

  const apiSend = (token: string, body: unknown) => t.request('POST', '/api/messages/send', { headers: { authorization: `Bearer ${token}` }, body });

  it('a contact that cannot be written is ERR_CREATING_CONTACT, a ticket ERR_CREATING_TICKET; nothing is left behind', async () => {
    const desk = await setupDesk(t);
    const db = tenant(t.db, desk.companyId);
    const number = newNumber();

    const allowContacts = await refuseInserts('contacts', desk.companyId);
    const noContact = await apiSend(desk.connection.token!, { number, body: 'hello' });
    await allowContacts();
    expect(noContact.status).toBe(500);
    expect(noContact.body).toMatchObject({ error: 'ERR_CREATING_CONTACT', message: 'Error while creating the contact in the database.' });

    const allowTickets = await refuseInserts('tickets', desk.companyId);
    const noTicket = await apiSend(desk.connection.token!, { number, body: 'hello' });
    await allowTickets();
    expect(noTicket.status).toBe(500);
    expect(noTicket.body.error).toBe('ERR_CREATING_TICKET');
    // The write was rolled back whole: not even the contact it created first stayed.
    expect(await db.selectFrom('contacts').select('contacts.id').where('contacts.number', '=', number).execute()).toEqual([]);

    const sent = await apiSend(desk.connection.token!, { number, body: 'hello' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  });

  it('a message that cannot be written is ERR_CREATING_MESSAGE, and the ticket is untouched', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const from = newNumber();
    await desk.say(from, 'hello there');
    const ticket = (await desk.ticketOf(from))!;
    const token = desk.userSession.token;
    expect((await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'open' } })).status).toBe(200);
    const before = (await desk.ticketOf(from))!;

    const allow = await refuseInserts('messages', desk.companyId);
    const res = await t.request('POST', `/messages/${ticket.id}`, { token, body: { body: 'will not be stored' } });
    await allow();
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('ERR_CREATING_MESSAGE');
    expect(await desk.ticketOf(from)).toMatchObject({ lastMessage: before.lastMessage, version: before.version });
    expect(await tenant(t.db, desk.companyId).selectFrom('outbox').select('outbox.id').where('outbox.ticketId', '=', ticket.id).execute()).toEqual([]);
  });

  it('deleting a message WhatsApp never received (still queued) is ERR_FETCH_WAPP_MSG; it stays as it was', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const from = newNumber();
    await desk.say(from, 'hi');
    const ticket = (await desk.ticketOf(from))!;
    const token = desk.userSession.token;
    await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'open' } });
    // The connection is down for a while: the reply waits in the outbox, unknown to WhatsApp.
    await t.request('POST', `/simulator/connections/${desk.connectionId}/drop`, { token: desk.adminSession.token, body: { cause: 'network', forMs: 60_000 } });
    const queued = await t.request('POST', `/messages/${ticket.id}`, { token, body: { body: 'waiting' } });
    expect(queued.body).toMatchObject({ sendStatus: 'queued' });
    const del = await t.request('DELETE', `/messages/${queued.body.id}`, { token });
    expect(del.status).toBe(400);
    expect(del.body.error).toBe('ERR_FETCH_WAPP_MSG');
    const list = (await t.request('GET', `/messages/${ticket.id}`, { token })).body.messages as { id: number; isDeleted: boolean }[];
    expect(list.find((m) => m.id === queued.body.id)).toMatchObject({ isDeleted: false });
  });
});

describe.each(DIALECTS)('sign-up closed by the platform on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { signup: false });
  });
  afterAll(async () => t.close());

  it('POST /companies/cadastro answers 403 ERR_USER_CREATION_DISABLED whatever the body, and creates nothing', async () => {
    const plan = await t.db.insertInto('plans').values({ name: `Closed ${Date.now()}`, users: 1, connections: 1, queues: 1, valueCents: 100 }).returning('id').executeTakeFirstOrThrow();
    const body = { name: 'Closed Door Ltda', email: `closed-${Date.now()}@signup.test`, phone: '11987654321', password: 'secret', planId: plan.id };
    for (const attempt of [body, {}, 'not json']) {
      const res = await t.request('POST', '/companies/cadastro', { body: attempt });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'ERR_USER_CREATION_DISABLED', message: 'User creation was disabled by the administrator.' });
    }
    expect(await t.db.selectFrom('companies').select('id').where('name', '=', body.name).execute()).toEqual([]);
  });
});
