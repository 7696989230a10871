import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { newNumber, setupDesk } from '../../../test/conversation.ts';
import { loginAs, seedContact, seedTenant, seedTicket, seedUser } from '../../../test/seed.ts';
import { expectSearches, sliceBesideAnotherWrite, slicePlans } from '../../../test/slices.ts';
import { inSlices } from '../../db/slices.ts';
import { tenant } from '../../db/tenant.ts';
import { emptyTicketSlice } from './service.ts';

describe.each(DIALECTS)('tickets on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  const put = (token: string, id: number, body: unknown) => t.request('PUT', `/tickets/${id}`, { token, body });
  const trackings = (companyId: number, ticketId: number) =>
    tenant(t.db, companyId).selectFrom('ticketTrackings').selectAll().where('ticketTrackings.ticketId', '=', ticketId).orderBy('ticketTrackings.id').execute();

  it('walks every transition: accept, return, accept, transfer, resolve, reopen — each tracked', async () => {
    const desk = await setupDesk(t, {
      queues: [{ greetingMessage: 'Sales here' }, { greetingMessage: 'Support here' }],
      settings: { sendGreetingAccepted: 'enabled', sendMsgTransfTicket: 'enabled' },
    });
    const from = newNumber();
    await desk.say(from, 'hi');
    await desk.say(from, '1');
    const { id } = (await desk.ticketOf(from))!;
    const token = desk.userSession.token;

    const accepted = await put(token, id, { status: 'open', userId: desk.user.id });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'open', userId: desk.user.id, user: { id: desk.user.id, name: desk.user.name }, chatbot: false });
    expect((await desk.outbox(from)).at(-1)!.body).toContain(`*${desk.user.name}*`);

    const returned = await put(token, id, { status: 'pending' });
    expect(returned.body).toMatchObject({ status: 'pending', userId: null });
    await put(token, id, { status: 'open' });

    // Transfer to another queue without a user: pending in that queue, user cleared, a note sent.
    const transferred = await put(token, id, { queueId: desk.queues[1]!.id, status: 'pending' });
    expect(transferred.body).toMatchObject({ status: 'pending', userId: null, queueId: desk.queues[1]!.id, queue: { name: desk.queues[1]!.name } });
    expect((await desk.outbox(from)).at(-1)!.body).toContain(desk.queues[1]!.name);
    // It left the first attendant's view and entered the second queue's attendant's.
    expect((await t.request('GET', `/tickets/${id}`, { token })).status).toBe(403);
    const outsider = desk.outsiderSession.token;
    expect((await put(outsider, id, { status: 'open' })).body).toMatchObject({ status: 'open', userId: desk.outsider.id });

    // Transfer with a user: open and theirs.
    const toUser = await put(outsider, id, { queueId: desk.queues[0]!.id, userId: desk.user.id, status: 'open' });
    expect(toUser.body).toMatchObject({ status: 'open', userId: desk.user.id, queueId: desk.queues[0]!.id });

    const resolved = await put(token, id, { status: 'closed' });
    expect(resolved.body).toMatchObject({ status: 'closed', userId: desk.user.id, unreadMessages: 0, awaitingRating: false });
    expect(resolved.body.closedAt).toBeTruthy();

    const reopened = await put(token, id, { status: 'open' });
    expect(reopened.body).toMatchObject({ status: 'open', userId: desk.user.id, closedAt: null });

    const rows = await trackings(desk.companyId, id);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ queuedAt: expect.any(String), startedAt: expect.any(String), transferredAt: expect.any(String), finishedAt: expect.any(String) });
    expect(rows[1]).toMatchObject({ startedAt: expect.any(String), finishedAt: null, userId: desk.user.id });
  });

  it('POST /tickets opens a ticket; a second one for the contact is ERR_OTHER_OPEN_TICKET, naming the holder when someone else has it', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const contact = await seedContact(t, desk.companyId, { name: 'Joana', number: newNumber() });
    const noQueue = await t.request('POST', '/tickets', { token: desk.userSession.token, body: { contactId: contact.id } });
    expect(noQueue.status).toBe(400);
    const created = await t.request('POST', '/tickets', { token: desk.userSession.token, body: { contactId: contact.id, queueId: desk.queues[0]!.id } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'open', userId: desk.user.id, contact: { id: contact.id, name: 'Joana' }, whatsappId: desk.connectionId });
    expect(created.body.uuid).toMatch(/^[0-9a-f-]{36}$/);

    const mine = await t.request('POST', '/tickets', { token: desk.userSession.token, body: { contactId: contact.id, queueId: desk.queues[0]!.id } });
    expect(mine.status).toBe(409);
    expect(mine.body).toMatchObject({ error: 'ERR_OTHER_OPEN_TICKET', ticketId: created.body.id });

    const held = await t.request('POST', '/tickets', { token: desk.adminSession.token, body: { contactId: contact.id } });
    expect(held.status).toBe(409);
    expect(held.body).toMatchObject({ error: 'ERR_OTHER_OPEN_TICKET', userId: desk.user.id, user: { id: desk.user.id, name: desk.user.name }, queue: { id: desk.queues[0]!.id } });
  });

  it('reopening while the contact has another active ticket on the connection is refused', async () => {
    const desk = await setupDesk(t);
    const from = newNumber();
    await desk.say(from, 'first');
    const first = (await desk.ticketOf(from))!;
    await put(desk.adminSession.token, first.id, { status: 'closed' });
    await desk.say(from, 'second');
    const second = (await desk.ticketOf(from))!;
    expect(second.id).not.toBe(first.id);
    const again = await put(desk.adminSession.token, first.id, { status: 'open' });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_OTHER_OPEN_TICKET');
  });

  it("DELETE empties the ticket's messages a slice at a time, other writes in between; another company's id touches nothing", async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const other = await seedTenant(t);
    const db = tenant(t.db, desk.companyId);
    const contact = await seedContact(t, desk.companyId);
    const old = await seedTicket(t, desk.companyId, { contactId: contact.id, status: 'closed' });
    const later = await seedTicket(t, desk.companyId, { contactId: contact.id });
    const rows = await db.insertInto('messages', [0, 1, 2, 3, 4].map((i) => ({ wid: `sliced-${old.id}-${i}`, ticketId: old.id, contactId: contact.id, body: `m${i}` }))).returningAll().execute();
    const reply = await db.insertInto('messages', { wid: `sliced-reply-${later.id}`, ticketId: later.id, contactId: contact.id, body: 'about m4', quotedMsgId: rows[4]!.id }).returningAll().executeTakeFirstOrThrow();
    const left = async () => (await db.selectFrom('messages').select('messages.id').where('messages.ticketId', '=', old.id).execute()).length;

    await inSlices(t.deps, (tx, limit) => emptyTicketSlice(tx, other.company.id, old.id, limit), 2);
    expect(await left()).toBe(5);
    // On SQLite each statement of a slice searches an index: the quotes' release once walked every
    // message of the company. A spare ticket's slice, which finds messages and a quote of one.
    const spare = await seedTicket(t, desk.companyId, { contactId: contact.id, status: 'closed' });
    const quoted = await db.insertInto('messages', { wid: `spare-${spare.id}`, ticketId: spare.id, contactId: contact.id, body: 'spare' }).returning('messages.id').executeTakeFirstOrThrow();
    await db.insertInto('messages', { wid: `spare-reply-${later.id}`, ticketId: later.id, contactId: contact.id, body: 'about spare', quotedMsgId: quoted.id }).execute();
    const plans = await slicePlans(t, (tx, limit) => emptyTicketSlice(tx, desk.companyId, spare.id, limit), 2);
    if (dialect === 'sqlite') expectSearches(plans);

    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => emptyTicketSlice(tx, desk.companyId, old.id, limit), async () => (await left()) > 0);
    expect(await left()).toBe(0);
    // The later ticket's reply keeps its text and loses the quote, with a new version.
    expect(await db.selectFrom('messages').select(['body', 'quotedMsgId', 'version']).where('messages.id', '=', reply.id).executeTakeFirstOrThrow()).toEqual({ body: 'about m4', quotedMsgId: null, version: reply.version + 1 });

    expect((await t.request('DELETE', `/tickets/${old.id}`, { token: desk.adminSession.token })).status).toBe(200);
    expect(await db.selectFrom('tickets').select('tickets.id').where('tickets.id', '=', old.id).execute()).toEqual([]);
    expect((await t.request('DELETE', `/tickets/${old.id}`, { token: desk.adminSession.token })).status).toBe(404);
  });

  it("DELETE detaches what outlives the ticket (a schedule, a later ticket's quote of it) with new versions", async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const db = tenant(t.db, desk.companyId);
    const contact = await seedContact(t, desk.companyId);
    const old = await seedTicket(t, desk.companyId, { contactId: contact.id, status: 'closed' });
    const later = await seedTicket(t, desk.companyId, { contactId: contact.id });
    const message = (ticketId: number, wid: string, quotedMsgId: number | null = null) =>
      db.insertInto('messages', { wid, ticketId, contactId: contact.id, body: wid, quotedMsgId }).returningAll().executeTakeFirstOrThrow();
    const quoted = await message(old.id, `old-${old.id}`);
    const reply = await message(later.id, `reply-${later.id}`, quoted.id);
    const schedule = await db.insertInto('schedules', { body: 'Follow up', contactId: contact.id, ticketId: old.id, sendAt: new Date(Date.now() + 3600_000).toISOString() }).returningAll().executeTakeFirstOrThrow();

    expect((await t.request('DELETE', `/tickets/${old.id}`, { token: desk.adminSession.token })).status).toBe(200);
    expect(await db.selectFrom('schedules').select(['ticketId', 'version']).where('schedules.id', '=', schedule.id).executeTakeFirstOrThrow()).toEqual({ ticketId: null, version: schedule.version + 1 });
    expect(await db.selectFrom('messages').select(['quotedMsgId', 'version']).where('messages.id', '=', reply.id).executeTakeFirstOrThrow()).toEqual({ quotedMsgId: null, version: reply.version + 1 });
  });

  // The super flag gives admin rights whatever the profile (sync/src/permissions.ts, isCompanyAdmin):
  // these checks used to read the profile alone, so a super-admin with the user profile was an
  // attendant here while the admin routes let them through.
  it('treats the super-admin as an admin of its company whatever its profile', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const superUser = await seedUser(t, desk.companyId, { profile: 'user', super: 1 });
    const token = (await loginAs(t, superUser)).token;
    const from = newNumber();
    await desk.say(from, 'hello');
    const { id } = (await desk.ticketOf(from))!;
    expect((await put(desk.userSession.token, id, { status: 'open' })).body).toMatchObject({ status: 'open', userId: desk.user.id });

    // A colleague's open ticket: seen, listed with showAll, and written in.
    expect((await t.request('GET', `/tickets/${id}`, { token })).status).toBe(200);
    const all = await t.request('GET', '/tickets?showAll=true&status=open', { token });
    expect(all.body.tickets.map((x: { id: number }) => x.id)).toContain(id);
    expect((await t.request('POST', `/messages/${id}`, { token, body: { body: 'An admin here' } })).status).toBe(201);
    // No queue needed to open a ticket, and ticket-options:deleteTicket is theirs.
    const contact = await seedContact(t, desk.companyId, { name: 'Rui', number: newNumber() });
    expect((await t.request('POST', '/tickets', { token, body: { contactId: contact.id } })).status).toBe(201);
    expect((await t.request('DELETE', `/tickets/${id}`, { token })).status).toBe(200);
    // An attendant with the same profile and no flag still gets none of it.
    const other = await seedContact(t, desk.companyId, { name: 'Ana', number: newNumber() });
    expect((await t.request('POST', '/tickets', { token: desk.outsiderSession.token, body: { contactId: other.id } })).status).toBe(400);
  });

  it('DELETE needs ticket-options:deleteTicket', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const from = newNumber();
    await desk.say(from, 'bye');
    const { id } = (await desk.ticketOf(from))!;
    expect((await t.request('DELETE', `/tickets/${id}`, { token: desk.userSession.token })).status).toBe(403);
    expect((await t.request('DELETE', `/tickets/${id}`, { token: desk.adminSession.token })).status).toBe(200);
    expect((await t.request('GET', `/tickets/${id}`, { token: desk.adminSession.token })).body.error).toBe('ERR_NO_TICKET_FOUND');
  });

  it("refuses another company's tickets, messages and contacts everywhere with 404", async () => {
    const desk = await setupDesk(t);
    const from = newNumber();
    await desk.say(from, 'private');
    const ticket = (await desk.ticketOf(from))!;
    const message = await tenant(t.db, desk.companyId).selectFrom('messages').select('messages.id').where('messages.ticketId', '=', ticket.id).executeTakeFirstOrThrow();
    const other = await setupDesk(t);
    const token = other.adminSession.token;
    const calls: [string, string, unknown?][] = [
      ['GET', `/tickets/${ticket.id}`],
      ['GET', `/tickets/u/${ticket.uuid}`],
      ['PUT', `/tickets/${ticket.id}`, { status: 'open' }],
      ['DELETE', `/tickets/${ticket.id}`],
      ['GET', `/messages/${ticket.id}`],
      ['POST', `/messages/${ticket.id}`, { body: 'hi' }],
      ['DELETE', `/messages/${message.id}`],
      ['GET', `/contacts/${ticket.contactId}`],
    ];
    for (const [method, url, body] of calls) {
      const res = await t.request(method, url, { token, body });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.error).toMatch(/^ERR_NO_TICKET_FOUND|ERR_NOT_FOUND|ERR_NO_CONTACT_FOUND$/);
    }
    const list = await t.request('GET', '/tickets?showAll=true', { token });
    expect(list.body.tickets.map((x: { id: number }) => x.id)).not.toContain(ticket.id);
    const taken = await t.request('POST', '/tickets', { token, body: { contactId: ticket.contactId } });
    expect(taken.status).toBe(404);
    expect(taken.body.error).toBe('ERR_NO_CONTACT_FOUND');
  });

  it("hands a ticket only to its company's own prompt or integration: another company's or an unknown id is 404, the ticket unchanged", async () => {
    const features = { useOpenAi: 1, useIntegrations: 1 } as const;
    const mine = await setupDesk(t, { queues: [{}] });
    const theirs = await setupDesk(t, { queues: [{}] });
    for (const desk of [mine, theirs]) await t.db.updateTable('plans').set(features).where('id', '=', desk.plan.id).execute();
    const from = newNumber();
    await mine.say(from, 'hello');
    const ticket = (await mine.ticketOf(from))!;
    const token = mine.adminSession.token;
    const prompt = { prompt: 'You help the customers of this shop kindly, answering about orders and deliveries.', apiKey: 'sk-test-0000000000000000', maxTokens: 100 };
    const made = async (token: string, url: string, body: unknown) => {
      const res = await t.request('POST', url, { token, body });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      return res.body.id as number;
    };
    const theirPrompt = await made(theirs.adminSession.token, '/prompt', { name: 'Their assistant', queueId: theirs.queues[0]!.id, ...prompt });
    const theirIntegration = await made(theirs.adminSession.token, '/queueIntegration', { type: 'webhook', name: 'Their hook', urlN8N: 'https://example.com/hook' });
    const before = await tenant(t.db, mine.companyId).selectFrom('tickets').selectAll().where('tickets.id', '=', ticket.id).executeTakeFirstOrThrow();
    for (const body of [{ promptId: theirPrompt }, { promptId: 2147483647 }, { integrationId: theirIntegration }, { integrationId: 2147483647 }]) {
      const res = await put(token, ticket.id, body);
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body.error).toBe('ERR_NOT_FOUND');
    }
    expect(await tenant(t.db, mine.companyId).selectFrom('tickets').selectAll().where('tickets.id', '=', ticket.id).executeTakeFirstOrThrow()).toEqual(before);
    // The company's own are taken.
    const ownPrompt = await made(token, '/prompt', { name: 'Our assistant', queueId: mine.queues[0]!.id, ...prompt });
    const res = await put(token, ticket.id, { promptId: ownPrompt });
    expect(res.status).toBe(200);
    expect(res.body.promptId).toBe(ownPrompt);
  });

  it('filters the list: status, queueIds, tags, users, withUnreadMessages, showAll, date, paging', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const a = newNumber();
    const b = newNumber();
    await desk.say(a, 'alpha');
    await desk.say(b, 'beta');
    const ta = (await desk.ticketOf(a))!;
    const tb = (await desk.ticketOf(b))!;
    await put(desk.userSession.token, tb.id, { status: 'open' });
    const tag = await tenant(t.db, desk.companyId).insertInto('tags', { name: `VIP ${ta.id}`, color: '#000' }).returning('tags.id').executeTakeFirstOrThrow();
    await tenant(t.db, desk.companyId).insertInto('ticketTags', { ticketId: ta.id, tagId: tag.id }).execute();
    const ids = async (qs: string, token = desk.userSession.token) => (await t.request('GET', `/tickets?${qs}`, { token })).body.tickets.map((x: { id: number }) => x.id);
    expect(await ids('status=pending')).toEqual([ta.id]);
    expect(await ids('status=open')).toEqual([tb.id]);
    expect(await ids(`tags[]=${tag.id}`)).toEqual([ta.id]);
    expect(await ids(`tags=${JSON.stringify([tag.id])}`)).toEqual([ta.id]);
    expect(await ids(`users[]=${desk.user.id}`)).toEqual([tb.id]);
    expect(await ids('withUnreadMessages=true')).toEqual(expect.arrayContaining([ta.id, tb.id]));
    expect(await ids(`queueIds=${JSON.stringify([desk.queues[0]!.id])}`)).toEqual(expect.arrayContaining([ta.id, tb.id]));
    const today = new Date().toISOString().slice(0, 10);
    expect(await ids(`date=${today}`)).toHaveLength(2);
    expect(await ids('date=2001-01-01')).toEqual([]);
    expect(await ids(`updatedAt=${today}`)).toHaveLength(2);
    // The admin without showAll sees what an attendant would; with it, everything.
    expect(await ids('showAll=true', desk.adminSession.token)).toEqual(expect.arrayContaining([ta.id, tb.id]));
    expect(await ids('showAll=false', desk.adminSession.token)).toEqual([]);
    // An attendant cannot widen the view with showAll.
    expect(await ids('showAll=true', desk.outsiderSession.token)).toEqual([]);
    const page = await t.request('GET', '/tickets?pageNumber=2', { token: desk.userSession.token });
    expect(page.body).toEqual({ tickets: [], hasMore: false });
  });

  it('searchParam finds tickets by message text and by contact name or number, by full-text search', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const a = newNumber();
    const b = newNumber();
    await desk.say(a, 'My parcel never arrived at the warehouse', { name: 'Zélia Quintana' });
    await desk.say(b, 'Invoice question', { name: 'Bruno Prado' });
    const ta = (await desk.ticketOf(a))!;
    const tb = (await desk.ticketOf(b))!;
    const search = async (q: string) =>
      (await t.request('GET', `/tickets?searchParam=${encodeURIComponent(q)}`, { token: desk.userSession.token })).body.tickets.map((x: { id: number }) => x.id);
    expect(await search('parcel')).toEqual([ta.id]);
    expect(await search('warehou')).toEqual([ta.id]);
    expect(await search('invoice')).toEqual([tb.id]);
    expect(await search('quintana')).toEqual([ta.id]);
    expect(await search(b.slice(0, 8))).toEqual(expect.arrayContaining([tb.id]));
    expect(await search('parcel invoice')).toEqual([]);
    // Query syntax is inert: quotes, stars and operators are just text.
    const odd = await t.request('GET', `/tickets?searchParam=${encodeURIComponent('"parcel* OR NEAR( -')}`, { token: desk.userSession.token });
    expect(odd.status).toBe(200);
  });
});
