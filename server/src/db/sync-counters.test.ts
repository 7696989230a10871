// The counters a pull reads to know which views to list again (sync_versions, per company and
// table) and the per-ticket message marks (modules/messages/view.ts) move when rows are inserted,
// deleted, or given a new version (no synced row changes without one: the version guard); on
// PostgreSQL once per transaction, at its commit, however many rows and statements it wrote
// (migrations 20261128T150000 and 20261129T150000).
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

  // PostgreSQL only: SQLite has one writer, so two transactions never overlap there.
  it.runIf(dialect === 'postgres')('move at commit: open writers of one company never wait on each other, in any order; a rolled-back savepoint moves nothing', async () => {
    const company = await seedCompany(t);
    const ticket = await seedTicket(t, company.id);
    const db = tenant(t.db, company.id);
    const before = { tags: await counter(company.id, 'tags'), quick: await counter(company.id, 'quick_messages'), messages: await counter(company.id, 'messages'), mark: await mark(ticket.id) };
    const first = await t.db.startTransaction().execute();
    const second = await t.db.startTransaction().execute();
    // A statement's lock on a counter row used to last until its transaction ended: the second
    // writer of the same table then waited for the first, and the opposite orders below deadlocked.
    const soon = <T>(p: Promise<T>) => Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('waited on the other transaction')), 3_000))]);
    try {
      await soon(tenant(first, company.id).insertInto('tags', { name: 'first-tag', color: '#111111' }).execute());
      await soon(tenant(second, company.id).insertInto('quickMessages', { shortcode: 'second', message: 'from the second', geral: 1 }).execute());
      await soon(tenant(second, company.id).insertInto('tags', { name: 'second-tag', color: '#222222' }).execute());
      await soon(tenant(first, company.id).insertInto('quickMessages', { shortcode: 'first', message: 'from the first', geral: 1 }).execute());
      // Two statements on the ticket's messages in one transaction: one move of the counter and the mark.
      await soon(tenant(first, company.id).insertInto('messages', { ticketId: ticket.id, contactId: ticket.contactId, body: 'a', wid: `c-${company.id}-a`, fromMe: 0 }).execute());
      await soon(tenant(first, company.id).insertInto('messages', { ticketId: ticket.id, contactId: ticket.contactId, body: 'b', wid: `c-${company.id}-b`, fromMe: 0 }).execute());
      // Not visible before the commit.
      expect(await counter(company.id, 'tags')).toBe(before.tags);
      await soon(second.commit().execute());
      expect(await counter(company.id, 'tags')).toBe(before.tags + 1);
      expect(await counter(company.id, 'messages')).toBe(before.messages);
      await soon(first.commit().execute());
    } finally {
      // The first one first: a statement of the second still waiting on it then ends.
      await first.rollback().execute().catch(() => undefined);
      await second.rollback().execute().catch(() => undefined);
    }
    expect(await counter(company.id, 'tags')).toBe(before.tags + 2);
    expect(await counter(company.id, 'quick_messages')).toBe(before.quick + 2);
    expect(await counter(company.id, 'messages')).toBe(before.messages + 1);
    expect(await mark(ticket.id)).toBe(before.mark + 1);

    // A savepoint rolled back takes its notes along; what came before it still moves.
    const after = { tags: await counter(company.id, 'tags'), quick: await counter(company.id, 'quick_messages') };
    const third = await t.db.startTransaction().execute();
    try {
      const inner = await third.savepoint('first').execute();
      await tenant(inner, company.id).insertInto('tags', { name: 'undone', color: '#333333' }).execute();
      const outer = await inner.rollbackToSavepoint('first').execute();
      await tenant(outer, company.id).insertInto('quickMessages', { shortcode: 'kept', message: 'kept', geral: 1 }).execute();
      const again = await outer.savepoint('second').execute();
      await tenant(again, company.id).insertInto('tags', { name: 'undone too', color: '#444444' }).execute();
      await (await again.rollbackToSavepoint('second').execute()).commit().execute();
    } catch (err) {
      await third.rollback().execute().catch(() => undefined);
      throw err;
    }
    expect(await counter(company.id, 'tags')).toBe(after.tags);
    expect(await counter(company.id, 'quick_messages')).toBe(after.quick + 1);
    expect(await db.selectFrom('tags').select('name').where('name', 'like', 'undone%').execute()).toEqual([]);
  });
});
