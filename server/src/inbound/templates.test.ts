// Template variables (spec/01 §9, spec/02 §9) in what the platform sends on its own: the
// connection's greeting and a queue's greeting (chatbot menus), the farewell on resolve, the
// out-of-hours text and a scheduled message all go out rendered by the one renderer of
// @zapdesk/sync. The simulated phone's journal (GET /simulator/outbox) shows what was sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { tenant } from '../db/tenant.ts';
import { runSchedulesOnce } from '../jobs/schedules.ts';
import { bumpVersion } from '../sync/version.ts';

const GREETING_PT = '(Bom dia|Boa tarde|Boa noite)';
const DATE = '\\d{2}/\\d{2}/\\d{4}';
const HOUR = '\\d{2}:\\d{2}:\\d{2}';
const stamp = (ticketId: number) => `\\d{14}${ticketId}`;

describe.each(DIALECTS)('template variables in automatic messages on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  it('fills the connection’s greeting menu and the chosen queue’s greeting, in the admin’s language', async () => {
    const desk = await setupDesk(t, {
      queues: [{ name: 'Sales', greetingMessage: 'You are in {{queue}}, {nome}. Number {numero}.' }, { name: 'Support', greetingMessage: 'Support' }],
      connection: { name: 'Main line', greetingMessage: '{{ms}}, {{firstName}}! {{connection}} here, protocol {{protocol}} on {{date}} at {{hour}}. {{unknown}}' },
    });
    expect((await t.request('POST', '/users/set-language/pt', { token: desk.adminSession.token })).status).toBe(200);
    const from = newNumber();
    await desk.say(from, 'hi', { name: 'Maria Clara Souza' });
    const ticket = (await desk.ticketOf(from))!;
    const [menu] = await desk.outbox(from);
    expect(menu!.body).toMatch(new RegExp(`^${GREETING_PT}, Maria! Main line here, protocol ${stamp(ticket.id)} on ${DATE} at ${HOUR}\\. \\{\\{unknown\\}\\}\\n\\n\\*1\\* - Sales\\n\\*2\\* - Support$`));

    await desk.say(from, '1');
    expect((await desk.outbox(from)).at(-1)!.body).toBe(`You are in Sales, Maria Clara Souza. Number ${from}.`);
  });

  it('fills the farewell sent on resolve and the out-of-hours text', async () => {
    const desk = await setupDesk(t, { queues: [{ name: 'Billing' }], connection: { complationMessage: 'Thank you, {{firstName}}! {{queue}} closed ticket {{protocol}}.' } });
    const from = newNumber();
    await desk.say(from, 'help', { name: 'João Pedro' });
    const ticket = (await desk.ticketOf(from))!;
    const token = desk.userSession.token;
    await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'open' } });
    const closed = await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'closed' } });
    expect(closed.status).toBe(200);
    expect((await desk.outbox(from)).at(-1)!.body).toMatch(new RegExp(`^Thank you, João! Billing closed ticket ${stamp(ticket.id)}\\.$`));

    const closedAllWeek = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => ({ weekday: d, weekdayEn: d, startTime: '', endTime: '' }));
    const night = await setupDesk(t, { queues: [{}, {}], settings: { scheduleType: 'company' }, connection: { outOfHoursMessage: 'Closed now, {primeiro-nome}. {saudacao}!' } });
    await t.db.updateTable('companies').set({ schedules: JSON.stringify(closedAllWeek), ...bumpVersion() }).where('companies.id', '=', night.companyId).execute();
    const late = newNumber();
    await night.say(late, 'hello?', { name: 'Ana' });
    // The company's first admin chose no language: the greeting is in English, the default.
    expect((await night.outbox(late)).map((m) => m.body)).toEqual([expect.stringMatching(/^Closed now, Ana\. (Good morning|Good afternoon|Good evening)!$/)]);
  });

  it('fills a scheduled message with the contact, its ticket’s queue and the connection', async () => {
    const desk = await setupDesk(t, { queues: [{ name: 'Sales' }], connection: { name: 'Shop line' } });
    const from = newNumber();
    await desk.say(from, 'hi', { name: 'Carla Dias' });
    const ticket = (await desk.ticketOf(from))!;
    const body = '{{ms}} {{firstName}}: {{queue}} @ {{connection}} #{{protocol}} {{date}} {email}';
    const sendAt = new Date(Date.now() + 5_000).toISOString();
    const created = await t.request('POST', '/schedules', { token: desk.adminSession.token, body: { body, contactId: ticket.contactId, sendAt } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const run = await runSchedulesOnce(t.deps, { now: () => new Date(Date.now() + 60_000), timeZone: 'America/Sao_Paulo' });
    expect(run).toMatchObject({ sent: 1 });
    expect((await desk.outbox(from)).at(-1)!.body).toMatch(new RegExp(`^(Good morning|Good afternoon|Good evening) Carla: Sales @ Shop line #${stamp(ticket.id)} ${DATE} $`));
    const stored = await tenant(t.db, desk.companyId).selectFrom('schedules').select(['schedules.status', 'schedules.body']).where('schedules.id', '=', created.body.id).executeTakeFirstOrThrow();
    // The schedule keeps its template; only the message is rendered.
    expect(stored).toEqual({ status: 'ENVIADA', body });
  });
});
