import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';

export type Database = Kysely<DB>;
export type Dialect = 'sqlite' | 'postgres';

// timestamptz comes back as an ISO string, the same shape SQLite stores, so services see one type.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (v) => new Date(v).toISOString());
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

/** Opens the database named by a URL: `postgres://…` for PostgreSQL, otherwise a SQLite file path (or `:memory:`). */
export function openDatabase(url: string): { db: Database; dialect: Dialect } {
  const plugins = [new CamelCasePlugin()];
  if (/^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    return { db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins }), dialect: 'postgres' };
  }
  const file = url.replace(/^sqlite:(\/\/)?/, '');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return { db: new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }), plugins }), dialect: 'sqlite' };
}

export function nowIso(): string {
  return new Date().toISOString();
}
