import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { seedCompany, seedUser } from '../../test/seed.ts';
import { runCompiled, trackTransaction } from './database.ts';
import { write } from './write.ts';

// runCompiled skips Kysely's executor on SQLite (a tracked transaction's statements on the writer,
// reads outside one on the reader): its answers must be the executor's, named by the camel-case plugin.
describe.each(DIALECTS)('runCompiled on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const readUsers = (companyId: number) =>
    t.db
      .selectFrom('users')
      .innerJoin('companies', 'companies.id', 'users.companyId')
      .select(['users.id', 'users.name', 'users.companyId', 'users.createdAt', 'companies.name as companyName', 'companies.dueDate'])
      .where('users.companyId', '=', companyId)
      .orderBy('users.id')
      .compile();

  it('answers a read outside a transaction as Kysely does, keys in camelCase', async () => {
    const company = await seedCompany(t);
    await seedUser(t, company.id, { name: 'Ana' });
    await seedUser(t, company.id, { name: 'Bruno' });
    const query = readUsers(company.id);
    const direct = await runCompiled(t.db, query);
    expect(direct.rows).toEqual((await t.db.executeQuery(query)).rows);
    expect(direct.rows.map((r) => Object.keys(r))).toEqual([
      ['id', 'name', 'companyId', 'createdAt', 'companyName', 'dueDate'],
      ['id', 'name', 'companyId', 'createdAt', 'companyName', 'dueDate'],
    ]);
    expect(direct.rows.map((r) => r.name)).toEqual(['Ana', 'Bruno']);
  });

  it('runs a tracked transaction’s writes and reads in it, with the counts and rows Kysely gives', async () => {
    const company = await seedCompany(t);
    const user = await seedUser(t, company.id, { name: 'Carla' });
    const rename = (name: string) =>
      t.db
        .updateTable('users')
        .set((eb) => ({ name, version: eb('users.version', '+', 1) }))
        .where('users.id', '=', user.id)
        .returning(['users.id', 'users.name', 'users.companyId'])
        .compile();
    const insertTag = (name: string) => t.db.insertInto('tags').values({ companyId: company.id, name, color: '#000' }).compile();
    await write(t.deps, async (tx) => {
      const viaDirect = await runCompiled(tx.db, rename('Carla 2'));
      const viaKysely = await tx.db.executeQuery(rename('Carla 3'));
      expect(viaDirect.rows).toEqual([{ id: user.id, name: 'Carla 2', companyId: company.id }]);
      expect(viaKysely.rows).toEqual([{ id: user.id, name: 'Carla 3', companyId: company.id }]);
      const inserted = await runCompiled(tx.db, insertTag('direct'));
      expect(inserted.numAffectedRows).toBe(1n);
      // The transaction's own rows, read in it (a read outside would not see them yet).
      const seen = await runCompiled(tx.db, t.db.selectFrom('tags').select('tags.name').where('tags.companyId', '=', company.id).compile());
      expect(seen.rows).toEqual([{ name: 'direct' }]);
    });
    expect((await t.db.selectFrom('users').select('name').where('id', '=', user.id).executeTakeFirstOrThrow()).name).toBe('Carla 3');
  });

  it.runIf(dialect === 'sqlite')('names a statement’s columns anew after a schema change, as the plugin would', async () => {
    const select = CompiledQuery.raw('select * from gadgets order by id');
    const rows = async () => (await write(t.deps, (tx) => runCompiled(tx.db, select))).rows;
    await write(t.deps, async (tx) => {
      await runCompiled(tx.db, CompiledQuery.raw('create table gadgets (id integer primary key, display_name text)'));
      await runCompiled(tx.db, CompiledQuery.raw("insert into gadgets (display_name) values ('Caneca')"));
    });
    // Its first run, then its row maker's.
    expect(await rows()).toEqual([{ id: 1, displayName: 'Caneca' }]);
    expect(await rows()).toEqual([{ id: 1, displayName: 'Caneca' }]);
    await write(t.deps, (tx) => runCompiled(tx.db, CompiledQuery.raw('alter table gadgets add column stock_count integer not null default 7')));
    expect(await rows()).toEqual([{ id: 1, displayName: 'Caneca', stockCount: 7 }]);
    // As many columns as before, one under a new name.
    await write(t.deps, (tx) => runCompiled(tx.db, CompiledQuery.raw('alter table gadgets rename column stock_count to units_left')));
    expect(await rows()).toEqual([{ id: 1, displayName: 'Caneca', unitsLeft: 7 }]);
    expect(await rows()).toEqual([{ id: 1, displayName: 'Caneca', unitsLeft: 7 }]);
    // Two columns of one name: the later one's value at the first one's place; __proto__ stays a key.
    const odd = CompiledQuery.raw('select 1 as x_y, 2 as other, 3 as x_y');
    for (let run = 0; run < 2; run++) {
      const [row] = (await write(t.deps, (tx) => runCompiled(tx.db, odd))).rows;
      expect(row).toEqual({ xY: 3, other: 2 });
      expect(Object.keys(row!)).toEqual(['xY', 'other']);
    }
    await write(t.deps, (tx) => runCompiled(tx.db, CompiledQuery.raw('drop table gadgets')));
  });

  it('rolls back with the transaction what it ran directly', async () => {
    const company = await seedCompany(t);
    await expect(
      write(t.deps, async (tx) => {
        await runCompiled(tx.db, t.db.insertInto('tags').values({ companyId: company.id, name: 'gone', color: '#000' }).compile());
        throw new Error('the write fails');
      }),
    ).rejects.toThrow('the write fails');
    expect(await t.db.selectFrom('tags').select('name').where('companyId', '=', company.id).execute()).toEqual([]);
  });

  it('never runs a statement of a transaction that ended: Kysely refuses it, as before', async () => {
    const trx = await t.db.startTransaction().execute();
    trackTransaction(t.db, trx);
    await runCompiled(trx, CompiledQuery.raw('select 1 as one'));
    await trx.commit().execute();
    const company = await seedCompany(t);
    await expect(runCompiled(trx, t.db.insertInto('tags').values({ companyId: company.id, name: 'late', color: '#000' }).compile())).rejects.toThrow();
    expect(await t.db.selectFrom('tags').select('name').where('companyId', '=', company.id).execute()).toEqual([]);
  });

  it('rejects, never throws, on a bad statement', async () => {
    const bad = CompiledQuery.raw('select * from no_such_table');
    const outcome = runCompiled(t.db, bad);
    expect(outcome).toBeInstanceOf(Promise);
    await expect(outcome).rejects.toThrow(/no_such_table/);
    await expect(write(t.deps, (tx) => runCompiled(tx.db, bad))).rejects.toThrow(/no_such_table/);
  });
});
