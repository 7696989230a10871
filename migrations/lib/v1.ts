// Column helpers for the migrations written against schema v1.
// Frozen with those migrations: a later migration that needs other helpers adds lib/v2.ts.
import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

export function dialectOf(db: Kysely<unknown>): Dialect {
  const adapter = db.getExecutor().adapter.constructor.name;
  return adapter.toLowerCase().includes('postgres') ? 'postgres' : 'sqlite';
}

type Table = CreateTableBuilder<string, never>;
type Col = (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
const same: Col = (c) => c;

/** Builders bound to one dialect so the table definitions read the same for both. */
export function columns(d: Dialect) {
  const pg = d === 'postgres';
  const nowDefault = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  return {
    id: (t: Table) =>
      pg
        ? t.addColumn('id', 'serial', (c) => c.primaryKey())
        : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
    time: (t: Table, name: string, f: Col = same) => t.addColumn(name, pg ? 'timestamptz' : 'text', f),
    bool: (t: Table, name: string, dflt: 0 | 1 = 0) =>
      t.addColumn(name, 'integer', (c) => c.notNull().defaultTo(dflt)),
    stamps: (t: Table) =>
      t
        .addColumn('created_at', pg ? 'timestamptz' : 'text', (c) => c.notNull().defaultTo(nowDefault))
        .addColumn('updated_at', pg ? 'timestamptz' : 'text', (c) => c.notNull().defaultTo(nowDefault)),
    version: (t: Table) => t.addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)),
    company: (t: Table) =>
      t.addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade')),
    ref: (t: Table, name: string, table: string, onDelete: 'cascade' | 'set null' = 'set null', notNull = false) =>
      t.addColumn(name, 'integer', (c) => {
        const r = c.references(`${table}.id`).onDelete(onDelete);
        return notNull ? r.notNull() : r;
      }),
    real: pg ? ('double precision' as const) : ('real' as const),
  };
}
