import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { seedCompany, seedUser } from '../../test/seed.ts';
import { paddedLength, prepare, prepareAcrossCompanies } from './prepared.ts';
import { valueById } from './value-by-id.ts';

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

  it('pads the lists of a padLists query to a few lengths, with the same answers and counts', async () => {
    const a = await seedCompany(t);
    const users = [];
    for (let i = 0; i < 12; i++) users.push(await seedUser(t, a.id, { name: `Pad ${i}` }));
    const ids = users.map((u) => u.id);
    const named = prepare(
      (db, p: { companyId: number; ids: number[] }) => db.selectFrom('users').select('users.name').where('users.companyId', '=', p.companyId).where('users.id', 'in', p.ids).orderBy('users.id'),
      { padLists: true },
    );
    const rename = prepare(
      (db, p: { companyId: number; ids: number[]; names: string[] }) =>
        db
          .updateTable('users')
          .set((eb) => ({ name: valueById<string>('users.id', p.ids.map((id, i) => [id, p.names[i]]), 'text'), version: eb('users.version', '+', 1) }))
          .where('users.companyId', '=', p.companyId)
          .where('users.id', 'in', p.ids),
      { padLists: true },
    );
    // 9 and 10 values share a statement (10 slots); 11 has one of its own (12).
    expect(named.compiled(t.db, { companyId: a.id, ids: ids.slice(0, 9) }).sql).toBe(named.compiled(t.db, { companyId: a.id, ids: ids.slice(0, 10) }).sql);
    expect(named.compiled(t.db, { companyId: a.id, ids: ids.slice(0, 11) }).sql).not.toBe(named.compiled(t.db, { companyId: a.id, ids: ids.slice(0, 10) }).sql);
    expect((await named(t.db, { companyId: a.id, ids: ids.slice(0, 9) })).rows.map((r) => r.name)).toEqual(users.slice(0, 9).map((u) => u.name));

    const picked = [ids[3]!, ids[0]!, ids[7]!, ids[1]!, ids[5]!, ids[2]!, ids[9]!, ids[4]!, ids[11]!];
    const result = await rename(t.db, { companyId: a.id, ids: picked, names: picked.map((id) => `Renamed ${id}`) });
    // The repeated last pair updates its row once: the count is the rows, not the slots.
    expect(Number(result.numAffectedRows)).toBe(9);
    const after = await t.db.selectFrom('users').select(['users.id', 'users.name']).where('users.companyId', '=', a.id).orderBy('users.id').execute();
    expect(after).toEqual(users.map((u) => ({ id: u.id, name: picked.includes(u.id) ? `Renamed ${u.id}` : u.name })));
  });

  it('paddedLength keeps short lists and rounds longer ones up by a quarter of a power of two at most', () => {
    expect([0, 1, 5, 8].map(paddedLength)).toEqual([0, 1, 5, 8]);
    expect([9, 10, 11, 16, 17, 33, 110, 129, 200].map(paddedLength)).toEqual([10, 10, 12, 16, 20, 40, 112, 160, 224]);
    for (let n = 1; n <= 400; n++) {
      expect(paddedLength(n)).toBeGreaterThanOrEqual(n);
      expect(paddedLength(n)).toBeLessThanOrEqual(Math.ceil(n * 1.25));
    }
    const lengths = new Set(Array.from({ length: 100 }, (_, i) => paddedLength(i + 1)));
    expect(lengths.size).toBeLessThan(25);
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

  const updateTag = prepare((db, p: { companyId: number; id: number; changes: { name?: string; color?: string; userId?: number | null } }) =>
    db
      .updateTable('tags')
      .set((eb) => ({ ...p.changes, version: eb('tags.version', '+', 1) }))
      .where('tags.companyId', '=', p.companyId)
      .where('tags.id', '=', p.id),
  );

  it('updates the fields of a row parameter, compiled once per set of fields, undefined ones left out', async () => {
    const a = await seedCompany(t);
    const b = await seedCompany(t);
    const user = await seedUser(t, a.id);
    const [tag] = await t.db.insertInto('tags').values({ companyId: a.id, name: 'vip', color: '#111111' }).returning('id').execute();
    const [ofB] = await t.db.insertInto('tags').values({ companyId: b.id, name: 'vip', color: '#111111' }).returning('id').execute();
    const read = async (id: number) => t.db.selectFrom('tags').select(['tags.name', 'tags.color', 'tags.userId']).where('tags.id', '=', id).executeTakeFirstOrThrow();

    await updateTag(t.db, { companyId: a.id, id: tag!.id, changes: { name: 'gold', color: undefined } });
    expect(await read(tag!.id)).toEqual({ name: 'gold', color: '#111111', userId: null });
    // Other fields: a statement of their own; a null is a value to set.
    await updateTag(t.db, { companyId: a.id, id: tag!.id, changes: { color: '#222222', userId: user.id } });
    expect(await read(tag!.id)).toEqual({ name: 'gold', color: '#222222', userId: user.id });
    await updateTag(t.db, { companyId: a.id, id: tag!.id, changes: { userId: null, color: '#333333' } });
    expect(await read(tag!.id)).toEqual({ name: 'gold', color: '#333333', userId: null });

    const nameOnly = updateTag.compiled(t.db, { companyId: a.id, id: 1, changes: { name: 'x' } });
    expect(updateTag.compiled(t.db, { companyId: a.id, id: 2, changes: { name: 'y', color: undefined } }).sql).toBe(nameOnly.sql);
    expect(updateTag.compiled(t.db, { companyId: a.id, id: 2, changes: { name: 'y' } }).parameters).toEqual(['y', 1, a.id, 2]);
    expect(updateTag.compiled(t.db, { companyId: a.id, id: 2, changes: { color: '#444444' } }).sql).not.toBe(nameOnly.sql);
    // Another company's row, named by its id: nothing changes.
    expect(Number((await updateTag(t.db, { companyId: a.id, id: ofB!.id, changes: { name: 'stolen' } })).numAffectedRows)).toBe(0);
    expect(await read(ofB!.id)).toEqual({ name: 'vip', color: '#111111', userId: null });
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
