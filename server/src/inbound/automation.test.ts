import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { tenant } from '../db/tenant.ts';
import { expireInactiveTickets, transferWaitingTickets } from '../jobs/ticket-jobs.ts';
import { bumpVersion } from '../sync/version.ts';

const CLOSED_WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: '00:00', endTime: '00:00' }));

describe.each(DIALECTS)('automation chain on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  async function addOption(companyId: number, queueId: number, parentId: number | null, option: number, title: string, message: string) {
    return tenant(t.db, companyId).insertInto('queueOptions', { queueId, parentId, option, title, message }).returning('queueOptions.id').executeTakeFirstOrThrow();
  }

  it('navigates the queue menu and nested options; # goes back to the menu; a leaf ends the bot', async () => {
    const desk = await setupDesk(t, { queues: [{ name: 'Sales', greetingMessage: 'Sales here' }, { name: 'Support', greetingMessage: 'Support here' }] });
    const support = desk.queues[1]!.id;
    const billing = await addOption(desk.companyId, support, null, 1, 'Billing', 'Billing menu');
    await addOption(desk.companyId, support, null, 2, 'Technical', 'Describe the issue');
    await addOption(desk.companyId, support, billing.id, 1, 'Second copy', 'Here is your invoice');
    const refund = await addOption(desk.companyId, support, billing.id, 2, 'Refund', 'Refunds take 5 days');
    const from = newNumber();
    const last = async () => (await desk.outbox(from)).at(-1)?.body;

    await desk.say(from, 'hi');
    expect(await last()).toBe('Welcome! Choose a department:\n\n*1* - Sales\n*2* - Support');
    await desk.say(from, '7');
    expect((await desk.outbox(from)).length).toBe(2);
    await desk.say(from, '2');
    expect(await last()).toBe('Support here\n\n*1* - Billing\n*2* - Technical\n*#* - Back to the main menu');
    expect(await desk.ticketOf(from)).toMatchObject({ queueId: support, chatbot: 1, status: 'pending' });
    await desk.say(from, '1');
    expect(await last()).toBe('Billing menu\n\n*1* - Second copy\n*2* - Refund\n*#* - Back to the main menu');
    await desk.say(from, '#');
    expect(await last()).toContain('*1* - Sales\n*2* - Support');
    expect(await desk.ticketOf(from)).toMatchObject({ queueId: null, queueOptionId: null });
    await desk.say(from, '2');
    await desk.say(from, '1');
    await desk.say(from, '2');
    expect(await last()).toBe('Refunds take 5 days');
    expect(await desk.ticketOf(from)).toMatchObject({ queueId: support, queueOptionId: refund.id, chatbot: 0 });
    const sent = (await desk.outbox(from)).length;
    await desk.say(from, 'thanks');
    expect((await desk.outbox(from)).length).toBe(sent);
    // The ticket now waits for Support's attendant.
    const list = await t.request('GET', '/tickets?status=pending', { token: desk.outsiderSession.token });
    expect(list.body.tickets.map((x: { contact: { number: string } }) => x.contact.number)).toContain(from);
  });

  it('a change to the connection, a queue or a setting applies to the very next message', async () => {
    const desk = await setupDesk(t, { queues: [{ name: 'Sales' }, { name: 'Support' }], connection: { greetingMessage: 'Old greeting', outOfHoursMessage: 'Closed now.' } });
    // A closed week, which counts only once the company's schedule is the one in force (below).
    await t.db.updateTable('companies').set({ schedules: JSON.stringify(CLOSED_WEEK.map((d) => ({ ...d, startTime: '', endTime: '' }))), ...bumpVersion() }).where('companies.id', '=', desk.companyId).execute();
    const token = desk.adminSession.token;
    const reply = async () => {
      const from = newNumber();
      await desk.say(from, 'hi');
      return (await desk.outbox(from)).at(-1)?.body;
    };
    expect(await reply()).toMatch(/^Old greeting\n/);
    // Each at once after its save, well within the moment the pipeline keeps what it read.
    expect((await t.request('PUT', `/whatsapp/${desk.connectionId}`, { token, body: { greetingMessage: 'New greeting' } })).status).toBe(200);
    expect(await reply()).toMatch(/^New greeting\n/);
    expect((await t.request('PUT', `/queue/${desk.queues[1]!.id}`, { token, body: { name: 'Help desk', greetingMessage: 'Help desk here' } })).status).toBe(200);
    expect(await reply()).toContain('*2* - Help desk');
    expect((await t.request('PUT', '/settings/scheduleType', { token, body: { value: 'company' } })).status).toBe(200);
    expect(await reply()).toBe('Closed now.');
  });

  it('stops the bot after maxUseBotQueues menus without a choice', async () => {
    const desk = await setupDesk(t, { queues: [{}, {}], connection: { maxUseBotQueues: 2 } });
    const from = newNumber();
    for (const body of ['hi', 'what?', 'hello?', '1']) await desk.say(from, body);
    expect(await desk.outbox(from)).toHaveLength(2);
    expect(await desk.ticketOf(from)).toMatchObject({ queueId: null, chatbot: 0, amountUsedBotQueues: 2, status: 'pending' });
  });

  it('waits timeUseBotQueues minutes before repeating the menu', async () => {
    const desk = await setupDesk(t, { queues: [{}, {}], connection: { timeUseBotQueues: 30 } });
    const from = newNumber();
    for (const body of ['hi', 'what?', 'hello?']) await desk.say(from, body);
    expect(await desk.outbox(from)).toHaveLength(1);
    await desk.say(from, '2');
    expect(await desk.ticketOf(from)).toMatchObject({ queueId: desk.queues[1]!.id });
  });

  it('answers out of hours (company schedule) once per run of messages and keeps the ticket pending', async () => {
    const desk = await setupDesk(t, { queues: [{}, {}], settings: { scheduleType: 'company' }, connection: { outOfHoursMessage: 'We are closed, back at 8.' } });
    await t.db.updateTable('companies').set({ schedules: JSON.stringify(CLOSED_WEEK.map((d) => ({ ...d, startTime: '', endTime: '' }))), ...bumpVersion() }).where('companies.id', '=', desk.companyId).execute();
    const from = newNumber();
    await desk.say(from, 'hello');
    await desk.say(from, 'anyone?');
    const out = await desk.outbox(from);
    expect(out.map((m) => m.body)).toEqual(['We are closed, back at 8.']);
    expect(await desk.ticketOf(from)).toMatchObject({ status: 'pending', queueId: null, userId: null });
  });

  it('answers out of hours with the queue’s text when scheduleType is queue', async () => {
    const desk = await setupDesk(t, { queues: [{ greetingMessage: 'Hi from Sales', outOfHoursMessage: 'Sales is closed now.', schedules: CLOSED_WEEK }], settings: { scheduleType: 'queue' } });
    const from = newNumber();
    await desk.say(from, 'hello');
    expect((await desk.outbox(from)).map((m) => m.body)).toEqual(['Sales is closed now.']);
    expect(await desk.ticketOf(from)).toMatchObject({ status: 'pending', queueId: desk.queues[0]!.id });
  });

  it('asks for a rating on close and stores a 1-3 reply; another reply opens a new ticket', async () => {
    const desk = await setupDesk(t, { queues: [{}], settings: { userRating: 'enabled' }, connection: { ratingMessage: 'How did we do?', complationMessage: 'Thanks, bye!' } });
    const from = newNumber();
    await desk.say(from, 'help');
    const ticket = (await desk.ticketOf(from))!;
    const token = desk.userSession.token;
    await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'open' } });
    const closed = await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'closed' } });
    expect(closed.body).toMatchObject({ status: 'closed', awaitingRating: true });
    expect((await desk.outbox(from)).at(-1)!.body).toBe('How did we do?\n\n*1* - Unsatisfied\n*2* - Satisfied\n*3* - Very satisfied');

    await desk.say(from, ' 3 ');
    const db = tenant(t.db, desk.companyId);
    expect(await db.selectFrom('userRatings').select(['userRatings.rate', 'userRatings.userId']).where('userRatings.ticketId', '=', ticket.id).execute()).toEqual([{ rate: 3, userId: desk.user.id }]);
    const tracking = await db.selectFrom('ticketTrackings').select(['ticketTrackings.rating', 'ticketTrackings.ratedAt']).where('ticketTrackings.ticketId', '=', ticket.id).executeTakeFirstOrThrow();
    expect(tracking.rating).toBe(3);
    expect(tracking.ratedAt).toBeTruthy();
    expect(await desk.ticketOf(from)).toMatchObject({ id: ticket.id, status: 'closed', awaitingRating: 0 });
    expect((await desk.outbox(from)).at(-1)!.body).toBe('Thanks, bye!');

    // A second close asks again; a reply that is not a rating goes the normal way.
    await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'open' } });
    await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'closed' } });
    await desk.say(from, 'one more question');
    const next = (await desk.ticketOf(from))!;
    expect(next.id).not.toBe(ticket.id);
    expect(next.status).toBe('pending');
    expect(await db.selectFrom('tickets').select('tickets.awaitingRating').where('tickets.id', '=', ticket.id).executeTakeFirstOrThrow()).toEqual({ awaitingRating: 0 });
    expect(await db.selectFrom('userRatings').select('userRatings.id').where('userRatings.ticketId', '=', ticket.id).execute()).toHaveLength(1);
  });

  it('auto-closes open tickets idle for expiresTicket minutes, once, with expiresInactiveMessage', async () => {
    const desk = await setupDesk(t, { queues: [{}], connection: { expiresTicket: 5, expiresInactiveMessage: 'Closed for inactivity.' } });
    const from = newNumber();
    await desk.say(from, 'hi');
    const ticket = (await desk.ticketOf(from))!;
    await t.request('PUT', `/tickets/${ticket.id}`, { token: desk.userSession.token, body: { status: 'open' } });
    expect(await expireInactiveTickets(t.deps, new Date(Date.now() + 4 * 60_000))).toBe(0);
    const later = new Date(Date.now() + 6 * 60_000);
    const runs = await Promise.all([expireInactiveTickets(t.deps, later), expireInactiveTickets(t.deps, later)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await desk.ticketOf(from)).toMatchObject({ status: 'closed' });
    expect((await desk.outbox(from)).filter((m) => m.body === 'Closed for inactivity.')).toHaveLength(1);
  });

  it('moves pending tickets nobody took to transferQueueId after timeToTransfer minutes', async () => {
    const desk = await setupDesk(t, { queues: [{}, {}] });
    await tenant(t.db, desk.companyId).updateTable('whatsapps').set({ timeToTransfer: 10, transferQueueId: desk.queues[1]!.id, ...bumpVersion() }).where('whatsapps.id', '=', desk.connectionId).execute();
    const from = newNumber();
    await desk.say(from, 'hi');
    expect(await transferWaitingTickets(t.deps, new Date(Date.now() + 5 * 60_000))).toBe(0);
    expect(await transferWaitingTickets(t.deps, new Date(Date.now() + 11 * 60_000))).toBe(1);
    expect(await transferWaitingTickets(t.deps, new Date(Date.now() + 12 * 60_000))).toBe(0);
    const ticket = (await desk.ticketOf(from))!;
    expect(ticket).toMatchObject({ status: 'pending', queueId: desk.queues[1]!.id, chatbot: 0 });
  });
});
