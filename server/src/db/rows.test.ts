// SQLite's rows through the driver (database.ts: cached statements, selectArrays): camelCase
// through the plugin whatever the statement (selects, RETURNING, raw SQL, streams), the columns'
// own names without it (withoutPlugins); a cached statement SQLite re-prepared after a schema
// change answers its new columns (rows are made from their values by a function per statement).
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, selectArrays } from './database.ts';

describe('SQLite rows', () => {
  const { db } = openDatabase(':memory:');
  afterAll(() => db.destroy());

  it('names columns in camelCase for every kind of statement, and follows a schema change', async () => {
    await sql`create table gadgets (id integer primary key, company_id integer not null, display_name text, price_in_cents integer, blob_data blob)`.execute(db);
    const inserted = await sql<{ id: number; displayName: string }>`insert into gadgets (company_id, display_name, price_in_cents, blob_data) values (1, 'Caneca', 2500, ${Buffer.from('ab')}), (1, 'Copo', null, null) returning id, display_name`.execute(db);
    expect(inserted.rows).toEqual([
      { id: 1, displayName: 'Caneca' },
      { id: 2, displayName: 'Copo' },
    ]);
    const all = await sql`select * from gadgets order by id`.execute(db);
    expect(all.rows).toEqual([
      { id: 1, companyId: 1, displayName: 'Caneca', priceInCents: 2500, blobData: Buffer.from('ab') },
      { id: 2, companyId: 1, displayName: 'Copo', priceInCents: null, blobData: null },
    ]);
    expect(Object.keys(all.rows[0]!)).toEqual(['id', 'companyId', 'displayName', 'priceInCents', 'blobData']);
    // Two columns of one name: the later one's value, at the first one's place (as row objects were).
    // Each statement twice: its first run's rows are better-sqlite3's objects, the later ones the maker's.
    for (let run = 0; run < 2; run++) {
      const twice = (await sql`select 1 as x_y, 2 as other, 3 as x_y`.execute(db)).rows;
      expect(twice).toEqual([{ xY: 3, other: 2 }]);
      expect(Object.keys(twice[0]!)).toEqual(['xY', 'other']);
      // Names that are not plain identifiers.
      expect((await sql`select 1 as "we""ird name", 2 as "it's"`.execute(db)).rows).toEqual([{ 'we"ird name': 1, "it's": 2 }]);
    }
    // The same statement after a column is added: the new column is there.
    await sql`alter table gadgets add column stock_count integer not null default 7`.execute(db);
    const again = await sql`select * from gadgets order by id`.execute(db);
    expect(again.rows[1]).toEqual({ id: 2, companyId: 1, displayName: 'Copo', priceInCents: null, blobData: null, stockCount: 7 });
    // A column renamed: as many columns as before, under the new name.
    await sql`alter table gadgets rename column stock_count to units_left`.execute(db);
    expect((await sql`select * from gadgets order by id`.execute(db)).rows[1]).toEqual({ id: 2, companyId: 1, displayName: 'Copo', priceInCents: null, blobData: null, unitsLeft: 7 });
    await sql`alter table gadgets rename column units_left to stock_count`.execute(db);
    // A column named __proto__ never becomes the row's prototype; the row is the same at a
    // statement's first run and after it (its maker).
    const protoRow = async () => (await sql`select ${'x'} as "__proto__", 2 as other`.execute(db.withoutPlugins())).rows[0] as Record<string, unknown>;
    const [firstRun, laterRun] = [await protoRow(), await protoRow()];
    expect(Object.getPrototypeOf(laterRun)).toBe(Object.prototype);
    expect(laterRun).toEqual(firstRun);
    expect(laterRun.other).toBe(2);
    // Streams, and arrays for selectArrays, from the same statements.
    const streamed = [];
    for await (const row of db.selectFrom('gadgets' as never).selectAll().stream()) streamed.push(row);
    expect(streamed).toEqual(again.rows);
    expect(await selectArrays(db, sql`select id, display_name from gadgets order by id`.compile(db))).toEqual([
      [1, 'Caneca'],
      [2, 'Copo'],
    ]);
    expect((await sql`select * from gadgets where id = 99`.execute(db)).rows).toEqual([]);
    // Without the plugin, the columns' own names (the chats view and the migrations read so).
    expect((await sql`select id, company_id, display_name from gadgets order by id limit 1`.execute(db.withoutPlugins())).rows).toEqual([{ id: 1, company_id: 1, display_name: 'Caneca' }]);
  });
});
