import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { seedCompany, seedUser } from '../../test/seed.ts';
import { prepare, prepareAcrossCompanies } from './prepared.ts';

describe.each(DIALECTS)('prepare() on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const usersNamed = prepare((db, p: { companyId: number; ids: number[]; prefix: string }) =>
    db
      .selectFrom('users')
      .select(['users.id', 'users.name'])
      .where('users.companyId', '=', p.companyId)
      .where('users.id', 'in', p.ids)
      .where('users.name', 'like', p.prefix)
      .orderBy('users.id'),
  );

  it('runs a list parameter with each run’s values, whatever its length, compiled once per length', async () => {
    const a = await seedCompany(t);
    const users = [];
    for (const name of ['Ana', 'Alice', 'Bruno', 'Aline']) users.push(await seedUser(t, a.id, { name }));
    const [ana, alice, bruno, aline] = users.map((u) => u.id);

    const names = async (ids: number[], prefix = 'A%') => (await usersNamed(t.db, { companyId: a.id, ids, prefix })).rows.map((r) => r.name);
    expect(await names([ana!, bruno!])).toEqual(['Ana']);
    expect(await names([alice!, aline!])).toEqual(['Alice', 'Aline']);
    expect(await names([bruno!])).toEqual([]);
    expect(await names([ana!, alice!, bruno!, aline!], 'B%')).toEqual(['Bruno']);
    // Same length, other values: the remembered SQL with this run's values.
    expect(await names([bruno!, ana!])).toEqual(['Ana']);

    const twoIds = usersNamed.compiled(t.db, { companyId: a.id, ids: [1, 2], prefix: 'x' });
    const threeIds = usersNamed.compiled(t.db, { companyId: a.id, ids: [1, 2, 3], prefix: 'x' });
    expect(threeIds.sql).not.toBe(twoIds.sql);
    expect(usersNamed.compiled(t.db, { companyId: a.id, ids: [7, 8], prefix: 'y' }).sql).toBe(twoIds.sql);
  });

  it("keeps to the company it is given, and refuses an invalid one", async () => {
    const a = await seedCompany(t);
    const b = await seedCompany(t);
    const ofB = await seedUser(t, b.id, { name: 'Ana of B' });
    expect((await usersNamed(t.db, { companyId: a.id, ids: [ofB.id], prefix: '%' })).rows).toEqual([]);
    expect(() => usersNamed.compiled(t.db, { companyId: 0, ids: [ofB.id], prefix: '%' })).toThrow(/invalid companyId/);
  });

  const insertTags = prepare((db, p: { companyId: number; rows: { name: string; color: string; userId: number | null }[] }) =>
    db
      .insertInto('tags')
      .values(p.rows.map((r) => ({ ...r, companyId: p.companyId })))
      .returning(['tags.name', 'tags.color', 'tags.userId']),
  );

  it('inserts a list of rows, each field a slot, compiled once per length and set of fields', async () => {
    const a = await seedCompany(t);
    const user = await seedUser(t, a.id);
    const first = await insertTags(t.db, { companyId: a.id, rows: [{ name: 'vip', color: '#111111', userId: null }, { name: "o'brien", color: '#222222', userId: user.id }] });
    expect(first.rows).toEqual([
      { name: 'vip', color: '#111111', userId: null },
      { name: "o'brien", color: '#222222', userId: user.id },
    ]);
    // Same length, other values (a null where there was a value): the remembered SQL, this run's values.
    const second = await insertTags(t.db, { companyId: a.id, rows: [{ name: 'novo', color: '#333333', userId: user.id }, { name: 'lead', color: '#444444', userId: null }] });
    expect(second.rows.map((r) => [r.name, r.userId])).toEqual([
      ['novo', user.id],
      ['lead', null],
    ]);
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `t${i}`, color: '#000000', userId: null }));
    const two = insertTags.compiled(t.db, { companyId: a.id, rows: rows(2) });
    expect(insertTags.compiled(t.db, { companyId: a.id, rows: rows(3) }).sql).not.toBe(two.sql);
    expect(insertTags.compiled(t.db, { companyId: a.id, rows: rows(2).reverse() }).sql).toBe(two.sql);
    expect(insertTags.compiled(t.db, { companyId: a.id, rows: rows(2) }).parameters).toEqual(expect.arrayContaining(['t0', 't1', a.id]));
    // Fewer fields than the rows compiled with: a clear error, nothing sent to the database.
    const ragged = [{ name: 'x', color: '#555555', userId: null }, { name: 'y', color: '#666666' }] as { name: string; color: string; userId: number | null }[];
    expect(() => insertTags.compiled(t.db, { companyId: a.id, rows: ragged })).toThrow(/rows\[1\]\.userId is undefined/);
    const names = await t.db.selectFrom('tags').select('tags.name').where('tags.companyId', '=', a.id).orderBy('tags.id').execute();
    expect(names.map((r) => r.name)).toEqual(['vip', "o'brien", 'novo', 'lead']);
  });

  it('refuses to compile a query that does not filter by the company', () => {
    const careless = prepare((db, p: { companyId: number; id: number }) => db.selectFrom('users').select('users.id').where('users.id', '=', p.id));
    expect(() => careless.compiled(t.db, { companyId: 1, id: 1 })).toThrow(/does not filter by companyId/);
  });

  it('prepareAcrossCompanies reads every company, with no companyId asked for', async () => {
    const a = await seedCompany(t);
    const b = await seedCompany(t);
    const ana = await seedUser(t, a.id, { name: 'Ana Across' });
    const bia = await seedUser(t, b.id, { name: 'Bia Across' });
    const named = prepareAcrossCompanies((db, p: { ids: number[] }) => db.selectFrom('users').select(['users.name', 'users.companyId']).where('users.id', 'in', p.ids).orderBy('users.id'));
    expect((await named(t.db, { ids: [ana.id, bia.id] })).rows).toEqual([
      { name: 'Ana Across', companyId: a.id },
      { name: 'Bia Across', companyId: b.id },
    ]);
    expect((await named(t.db, { ids: [bia.id] })).rows).toEqual([{ name: 'Bia Across', companyId: b.id }]);
  });
});
