// The message view's kept windows (view.ts): on SQLite a ticket's window is brought up to date from
// the rows that changed since its mark (migration 20261129T190000), elsewhere read whole. Whatever
// happens to a ticket's messages (new ones, old ones arriving late, acks, deletes, moves between
// tickets, quotes, a sender renamed) the windows a pull lists must be what reading them whole gives.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedCompany, seedPlan, seedTicket, seedUser } from '../../../test/seed.ts';
import { tenant } from '../../db/tenant.ts';
import type { ViewContext } from '../../sync/views/types.ts';
import { SYNCED_MESSAGES_PER_TICKET, ticketMessagesView } from './view.ts';

describe.each(DIALECTS)('kept message windows on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('list what a whole read lists, after every kind of change', async () => {
    const plan = await seedPlan(t);
    const company = await seedCompany(t, { planId: plan.id });
    const admin = await seedUser(t, company.id, { profile: 'admin' });
    const db = tenant(t.db, company.id);
    const tickets: { id: number; contactId: number }[] = [];
    for (let i = 0; i < 3; i++) tickets.push(await seedTicket(t, company.id, { status: 'open' }));

    // A small deterministic generator, so a failure is the same failure next time.
    let seed = 20261129;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
    const base = Date.UTC(2026, 10, 29, 12);
    let clock = 0;
    let wid = 0;
    const messageIds = async (ticketId?: number) =>
      (await db.selectFrom('messages').select('messages.id').$if(ticketId !== undefined, (q) => q.where('messages.ticketId', '=', ticketId!)).execute()).map((m) => m.id);
    const insert = async (ticket: { id: number; contactId: number }, at: number, quotedMsgId: number | null = null) => {
      const createdAt = new Date(base + at * 1000).toISOString();
      await db.insertInto('messages', { wid: `W${++wid}`, ticketId: ticket.id, contactId: ticket.contactId, body: `m${wid}`, fromMe: wid % 2, ack: 0, read: 1, quotedMsgId, createdAt, updatedAt: createdAt }).execute();
    };
    const bump = (ids: number[], set: 'ack' | 'isDeleted') =>
      db.updateTable('messages').set(set === 'ack' ? { ack: sql`ack + 1`, version: sql`version + 1` } : { isDeleted: 1, version: sql`version + 1` }).where('messages.id', 'in', ids).execute();

    // Each ticket starts with a full window and a few older messages behind it.
    for (const ticket of tickets) for (let k = 0; k < SYNCED_MESSAGES_PER_TICKET + 5; k++) await insert(ticket, ++clock);

    const ctx = async (): Promise<ViewContext> => {
      const counters = await sql<{ tbl: string; version: number }>`select tbl, version from sync_versions where company_id = ${company.id}`.execute(t.db);
      return {
        db: t.db,
        dialect,
        t: db,
        actor: { userId: admin.id, companyId: company.id, profile: 'admin', super: false, sessionId: 'test' },
        clientGroupId: 'windows-test',
        tableVersions: new Map(counters.rows.map((r) => [r.tbl, Number(r.version)])),
      };
    };
    const expectWhole = async (step: string) => {
      const c = await ctx();
      const kept = (await ticketMessagesView.listSegments!(c)).flat();
      const whole = await ticketMessagesView.listVersions(c);
      expect(kept, step).toEqual(whole);
    };
    await expectWhole('first read');

    const steps: [string, () => Promise<unknown>][] = [
      ['a new message', () => insert(pick(tickets), ++clock)],
      ['two new messages in one ticket', async () => {
        const ticket = pick(tickets);
        await insert(ticket, ++clock);
        await insert(ticket, ++clock);
      }],
      ['a message that arrives late (older than the window)', () => insert(pick(tickets), Math.floor(random() * 10))],
      ['a message inside the window, by its time', () => insert(pick(tickets), clock - Math.floor(random() * 20))],
      ['acks of messages in and out of windows', async () => bump([pick(await messageIds()), pick(await messageIds())], 'ack')],
      ['a message marked deleted', async () => bump([pick(await messageIds())], 'isDeleted')],
      // One nobody quotes (removing a quoted one clears the quote without a new version: the test database's guard refuses it).
      ['a message removed', async () => {
        const quoted = new Set((await db.selectFrom('messages').select('messages.quotedMsgId').execute()).map((m) => m.quotedMsgId));
        await db.deleteFrom('messages').where('messages.id', '=', pick((await messageIds()).filter((id) => !quoted.has(id)))).execute();
      }],
      ['a message moved to another ticket', async () => {
        const [from, to] = [pick(tickets), pick(tickets)];
        const ids = await messageIds(from.id);
        if (from.id !== to.id && ids.length) await db.updateTable('messages').set({ ticketId: to.id, version: sql`version + 1` }).where('messages.id', '=', pick(ids)).execute();
      }],
      ['a reply quoting a message of its ticket, then that message changing', async () => {
        const ticket = pick(tickets);
        const quoted = pick(await messageIds(ticket.id));
        await insert(ticket, ++clock, quoted);
        await bump([quoted], 'ack');
      }],
      ['a reply quoting another ticket\'s message, then that message changing', async () => {
        const [a, b] = [tickets[0]!, tickets[1]!];
        const quoted = pick(await messageIds(b.id));
        await insert(a, ++clock, quoted);
        await expectWhole('the quote of another ticket\'s message');
        await bump([quoted], 'ack');
      }],
      ['a message\'s time corrected', async () => {
        const at = new Date(base + Math.floor(random() * clock) * 1000).toISOString();
        await db.updateTable('messages').set({ createdAt: at, version: sql`version + 1` }).where('messages.id', '=', pick(await messageIds())).execute();
      }],
      ['the sender renamed', () => db.updateTable('contacts').set({ name: `Renamed ${clock}`, version: sql`version + 1` }).where('contacts.id', '=', pick(tickets).contactId).execute()],
    ];
    // Every kind of change once, in order, then 150 picked at random (two between some reads).
    const plan2 = [...steps, ...Array.from({ length: 150 }, () => pick(steps))];
    for (const [i, [name, step]] of plan2.entries()) {
      await step();
      if (random() < 0.3) await pick(steps)[1]();
      await expectWhole(`step ${i}: ${name}`);
    }
  });
});
