import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { seedCompany, seedUser } from '../../test/seed.ts';
import { prepare } from './prepared.ts';

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

  it('refuses to compile a query that does not filter by the company', () => {
    const careless = prepare((db, p: { companyId: number; id: number }) => db.selectFrom('users').select('users.id').where('users.id', '=', p.id));
    expect(() => careless.compiled(t.db, { companyId: 1, id: 1 })).toThrow(/does not filter by companyId/);
  });
});
