import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { FOLD_FUNCTION, foldText } from './fold.ts';
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
  // Reads (the ticket search's index walks above all) map the file instead of copying each page
  // through read(); the page cache keeps 64 MB of decoded pages rather than the default 16 MB.
  sqlite.pragma('mmap_size = 268435456');
  sqlite.pragma('cache_size = -65536');
  // PostgreSQL has it as a SQL function (a migration); SQLite's lower() is ASCII-only.
  sqlite.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) => (value === null || value === undefined ? null : foldText(String(value))));
  cachePreparedStatements(sqlite);
  return { db: new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }), plugins }), dialect: 'sqlite' };
}

/**
 * Kysely's SQLite driver prepares every statement anew; preparing an insert compiles the table's
 * triggers (full-text index, sync counters) too, a large share of a hot path's time. Statements are
 * reusable, so the same SQL text gets the same statement (SQLite re-prepares by itself after a
 * schema change). Bounded, least recently used out.
 */
function cachePreparedStatements(sqlite: SQLite.Database, max = 1000): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, SQLite.Statement>();
  sqlite.prepare = ((source: string) => {
    const hit = cache.get(source);
    if (hit) {
      cache.delete(source);
      cache.set(source, hit);
      return hit;
    }
    const statement = prepare(source);
    cache.set(source, statement);
    if (cache.size > max) cache.delete(cache.keys().next().value!);
    return statement;
  }) as typeof sqlite.prepare;
}

export function nowIso(): string {
  return new Date().toISOString();
}
