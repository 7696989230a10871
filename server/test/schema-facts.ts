// What the migrated schema says, read from the database itself (SQLite's pragmas, PostgreSQL's
// catalogue), for tests that check a rule over every table.
import { sql } from 'kysely';
import type { TestApp } from './harness.ts';

export interface ForeignKey {
  table: string;
  columns: string[];
  references: string;
}

/** Every foreign key of the schema, its columns in order. */
export async function foreignKeys(t: TestApp): Promise<ForeignKey[]> {
  if (t.deps.dialect === 'sqlite') {
    const tables = (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`.execute(t.db)).rows;
    const out: ForeignKey[] = [];
    for (const { name } of tables) {
      const keys = new Map<number, ForeignKey>();
      const rows = (await sql<{ id: number; table: string; from: string }>`SELECT id, "table", "from" FROM pragma_foreign_key_list(${name}) ORDER BY id, seq`.execute(t.db)).rows;
      for (const k of rows) {
        const key = keys.get(k.id) ?? { table: name, columns: [], references: k.table };
        key.columns.push(k.from);
        keys.set(k.id, key);
      }
      out.push(...keys.values());
    }
    return out;
  }
  const rows = (
    await sql<{ name: string; table: string; column: string; references: string }>`
      SELECT c.conname AS name, c.conrelid::regclass::text AS table, a.attname AS column, c.confrelid::regclass::text AS references
      FROM pg_constraint c CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
      WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace
      ORDER BY c.conname, k.n`.execute(t.db)
  ).rows;
  const keys = new Map<string, ForeignKey>();
  for (const r of rows) {
    const key = keys.get(r.name) ?? { table: r.table, columns: [], references: r.references };
    key.columns.push(r.column);
    keys.set(r.name, key);
  }
  return [...keys.values()];
}

/** The company tables of each database: its schema is migrated before any test reads it. */
const tablesOf = new WeakMap<object, Promise<string[]>>();

/** The tables that have a company_id column: a company's rows. */
export function companyTables(t: TestApp): Promise<string[]> {
  let tables = tablesOf.get(t.db);
  if (!tables) tablesOf.set(t.db, (tables = readCompanyTables(t)));
  return tables;
}

async function readCompanyTables(t: TestApp): Promise<string[]> {
  const rows =
    t.deps.dialect === 'sqlite'
      ? (await sql<{ name: string }>`SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'company_id')`.execute(t.db)).rows
      : (await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.columns WHERE column_name = 'company_id' AND table_schema = current_schema()`.execute(t.db)).rows;
  return rows.map((r) => r.name).sort();
}

/**
 * Every row of one company, per table that has rows, as sorted JSON text: a snapshot to compare
 * before and after what must not change them. A connection's lease is renewed in the background
 * on PostgreSQL (channels/lease.ts), so its expiry is left out.
 */
export async function companyRows(t: TestApp, companyId: number): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  // All at once: on PostgreSQL the pool reads them side by side (a sweep takes hundreds of these).
  const tables = await companyTables(t);
  const read = await Promise.all(tables.map((table) => sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} WHERE company_id = ${companyId}`.execute(t.db)));
  tables.forEach((table, i) => {
    const kept = read[i]!.rows.map(({ lease_expires_at: _renewed, ...row }) => JSON.stringify(row));
    if (kept.length) out[table] = kept.sort().join('\n');
  });
  return out;
}

/** The tables of two snapshots (companyRows) whose rows differ, each as `table changed: before → after` for a failure's message. */
export function rowChanges(before: Record<string, string>, after: Record<string, string>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((table) => before[table] !== after[table])
    .map((table) => `${table} changed: ${changedRows(before[table], after[table])}`);
}

/** The lines (rows of a table snapshot, files…) that differ, before → after, for a failure's message. */
export function changedRows(before = '', after = ''): string {
  const [was, now] = [new Set(before.split('\n')), new Set(after.split('\n'))];
  return `${[...was].filter((r) => !now.has(r)).join(' ')} → ${[...now].filter((r) => !was.has(r)).join(' ')}`.slice(0, 1500);
}

/**
 * For each foreign key of the schema to a table of `parents` (table → ids): how many of its rows
 * name one of those ids, by `table.column`. What a delete must leave at zero.
 */
export async function rowsNaming(t: TestApp, parents: Record<string, number[]>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const key of await foreignKeys(t)) {
    const named = parents[key.references];
    if (!named || named.length === 0) continue;
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(key.table)} WHERE ${sql.ref(key.columns[0]!)} IN (${sql.join(named)})`.execute(t.db);
    out[`${key.table}.${key.columns[0]}`] = Number(rows[0]!.n);
  }
  return out;
}

/** The same keys, each at zero: what `rowsNaming` answers once everything naming the ids is gone. */
export const noneNaming = (counts: Record<string, number>): Record<string, number> => Object.fromEntries(Object.keys(counts).map((k) => [k, 0]));
