import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { seedCompany, seedUser } from '../../test/seed.ts';
import { preferPrimaryKey } from './database.ts';
import { tenant } from './tenant.ts';

describe.each(DIALECTS)('tenant() on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it("finds nothing of another company's rows by id, and changes none of them", async () => {
    const a = await seedCompany(t);
    const b = await seedCompany(t);
    const userOfB = await seedUser(t, b.id, { name: 'Bea' });

    expect(await tenant(t.db, a.id).selectFrom('users').selectAll().where('users.id', '=', userOfB.id).executeTakeFirst()).toBeUndefined();
    expect(await tenant(t.db, b.id).selectFrom('users').select('name').where('users.id', '=', userOfB.id).executeTakeFirst()).toEqual({ name: 'Bea' });

    const updated = await tenant(t.db, a.id).updateTable('users').set({ name: 'Hijacked' }).where('id', '=', userOfB.id).executeTakeFirst();
    expect(Number(updated.numUpdatedRows)).toBe(0);
    const deleted = await tenant(t.db, a.id).deleteFrom('users').where('id', '=', userOfB.id).executeTakeFirst();
    expect(Number(deleted.numDeletedRows)).toBe(0);
    expect((await t.db.selectFrom('users').select('name').where('id', '=', userOfB.id).executeTakeFirstOrThrow()).name).toBe('Bea');
  });

  it('stamps inserts with its company whatever the caller passed', async () => {
    const a = await seedCompany(t);
    const b = await seedCompany(t);
    const forged = { key: 'forged', value: 'x', companyId: b.id } as unknown as { key: string; value: string };
    await tenant(t.db, a.id).insertInto('settings', forged).execute();
    const row = await t.db.selectFrom('settings').select('companyId').where('key', '=', 'forged').executeTakeFirstOrThrow();
    expect(row.companyId).toBe(a.id);
  });

  it("looks rows up by a list of ids through the primary key, still only the company's", async () => {
    const a = await seedCompany(t);
    const b = await seedCompany(t);
    const mine = await seedUser(t, a.id, { name: 'Ana' });
    const theirs = await seedUser(t, b.id, { name: 'Bia' });
    const byIds = tenant(t.db, a.id).selectFrom('users').select('users.name').where('users.id', 'in', [mine.id, theirs.id]);
    expect(await byIds.execute()).toEqual([{ name: 'Ana' }]);
    if (dialect !== 'sqlite') return;
    // Without it SQLite walks the company's index: every row of the company, for a handful of ids.
    for (const table of ['messages', 'contacts', 'outbox', 'users'] as const) {
      const q = tenant(t.db, a.id).selectFrom(table).select(`${table}.id`).where(`${table}.id`, 'in', [1, 2, 3]).compile();
      const plan = await t.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]));
      expect(plan.rows.map((r) => r.detail).join(' | '), table).toMatch(/USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    }
  });

  it("takes only the id list's own statement off the company index, not a subquery's", async () => {
    const outer = (inner: string) => `delete from "messages" where "messages"."id" in (${inner}) and "messages"."company_id" = ?`;
    const sub = 'select "messages"."id" from "messages" where "messages"."company_id" = ? and ("messages"."ticket_id" = ?) limit ?';
    expect(preferPrimaryKey(outer(sub))).toBe(outer(sub).replace(') and "messages"', ') and +"messages"'));
    // A grouped condition is the same statement; a string's parenthesis is no statement at all.
    expect(preferPrimaryKey(`select 1 from "users" where ("users"."id" in (?, ?) and ('(' = ?)) and ("users"."company_id" = ?)`)).toContain('and (+"users"."company_id" = ?)');
    expect(preferPrimaryKey(`select 1 from "users" where "users"."company_id" = ? and "users"."name" in (?)`)).not.toContain('+');
    if (dialect !== 'sqlite') return;
    // The slice's subquery walks the company's index (it scanned the whole table when plussed too).
    const a = await seedCompany(t);
    const t2 = tenant(t.db, a.id);
    const q = t2.deleteFrom('messages').where('messages.id', 'in', t2.selectFrom('messages').select('messages.id').where('messages.ticketId', '=', 1).limit(500)).compile();
    const plan = (await t.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]))).rows.map((r) => r.detail).join(' | ');
    expect(plan).not.toMatch(/SCAN messages/);
    expect(plan).toMatch(/SEARCH messages USING (COVERING )?INDEX \w+ \(company_id=\?/);
  });

  it('refuses to build a query without a valid company', () => {
    expect(() => tenant(t.db, 0)).toThrow(/invalid companyId/);
    expect(() => tenant(t.db, Number.NaN)).toThrow(/invalid companyId/);
  });
});
