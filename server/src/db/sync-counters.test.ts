// The counters a pull reads to know which views to list again (sync_versions, per company and
// table) and the per-ticket message marks (modules/messages/view.ts) move when rows are inserted,
// deleted, or given a new version (no synced row changes without one: the version guard); on
// PostgreSQL once per statement, however many rows it wrote (migration 20261128T150000).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { seedCompany, seedTicket } from '../../test/seed.ts';
import { tenant } from './tenant.ts';

describe.each(DIALECTS)('sync counters on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const counter = async (companyId: number, table: string) =>
    (await t.db.selectFrom('syncVersions').select('version').where('companyId', '=', companyId).where('tbl', '=', table).executeTakeFirst())?.version ?? 0;
  const mark = async (ticketId: number) => (await t.db.selectFrom('ticketMessageMarks').select('mark').where('ticketId', '=', ticketId).executeTakeFirst())?.mark ?? 0;

  it('move with inserts, new versions, moves and deletes, of their company and ticket only; on PostgreSQL once per statement', async () => {
    const company = await seedCompany(t);
    const other = await seedCompany(t);
    const [a, b] = [await seedTicket(t, company.id), await seedTicket(t, company.id)];
    const db = tenant(t.db, company.id);
    const before = { messages: await counter(company.id, 'messages'), other: await counter(other.id, 'messages'), a: await mark(a.id), b: await mark(b.id) };

    // One statement, 100 messages in two tickets.
    const rows = Array.from({ length: 100 }, (_, i) => {
      const ticket = i % 2 ? a : b;
      return { ticketId: ticket.id, contactId: ticket.contactId, body: `m${i}`, wid: `w-${company.id}-${i}`, fromMe: 0 };
    });
    const ids = (await db.insertInto('messages', rows).returning('id').execute()).map((r) => r.id);
    // PostgreSQL: once for the statement, once per ticket; SQLite: once per row.
    const [perStatement, perTicket] = dialect === 'postgres' ? [1, 1] : [100, 50];
    expect(await counter(company.id, 'messages')).toBe(before.messages + perStatement);
    expect(await mark(a.id)).toBe(before.a + perTicket);
    expect(await mark(b.id)).toBe(before.b + perTicket);
    expect(await counter(other.id, 'messages')).toBe(before.other);

    // A new version of a ticket's messages moves the counter and that ticket's mark only.
    const moved = { messages: await counter(company.id, 'messages'), a: await mark(a.id), b: await mark(b.id) };
    await db.updateTable('messages').set((eb) => ({ body: 'edited', version: eb('messages.version', '+', 1) })).where('messages.ticketId', '=', a.id).execute();
    expect(await counter(company.id, 'messages')).toBeGreaterThan(moved.messages);
    expect(await mark(a.id)).toBeGreaterThan(moved.a);
    expect(await mark(b.id)).toBe(moved.b);

    // A message moved to another ticket moves both marks; a delete moves the counter and the mark.
    const afterEdit = { a: await mark(a.id), b: await mark(b.id) };
    await db.updateTable('messages').set((eb) => ({ ticketId: b.id, version: eb('messages.version', '+', 1) })).where('messages.id', '=', ids[1]!).execute();
    expect(await mark(a.id)).toBeGreaterThan(afterEdit.a);
    expect(await mark(b.id)).toBeGreaterThan(afterEdit.b);
    const beforeDelete = { messages: await counter(company.id, 'messages'), b: await mark(b.id) };
    await db.deleteFrom('messages').where('messages.ticketId', '=', b.id).execute();
    expect(await counter(company.id, 'messages')).toBeGreaterThan(beforeDelete.messages);
    expect(await mark(b.id)).toBeGreaterThan(beforeDelete.b);
  });
});
