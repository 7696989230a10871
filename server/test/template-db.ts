// Migrated test databases, made by copying instead of migrating. Inside a test run (vitest's global
// setup names it in ZAPDESK_TEST_RUN), each worker process migrates one database per dialect and
// installs the version guard on it once, then copies it for every test app: a file copy on SQLite,
// CREATE DATABASE … TEMPLATE on PostgreSQL. Migrating and guarding took 0.5 s per app on SQLite and
// 0.9 s on PostgreSQL (a 2-core machine), for every test app of the run. The migrations only create
// schema (no rows depend on when or where they ran), so a copy is the database a migration would
// have made. Outside a test run (benchmarks), `migratedCopy` answers false and the caller migrates.
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { isPostgresUrl, openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { installVersionGuard } from './version-guard.ts';

/** The run's id, set by the global setup; undefined outside a test run. */
const runId = () => process.env.ZAPDESK_TEST_RUN;

/** PostgreSQL templates of a run are named with this prefix; the run's teardown drops them. */
export const templatePrefix = (run: string) => `zapdesk_tpl_${run}_`;

let sqliteTemplate: Promise<string> | undefined;
const postgresTemplates = new Map<string, Promise<string>>();

async function migrateAndGuard(url: string): Promise<void> {
  const { db, dialect } = openDatabase(url);
  try {
    await migrateToLatest(db);
    await installVersionGuard(db, dialect);
  } finally {
    await db.destroy();
  }
}

/** This process's migrated SQLite file: one standalone file (VACUUM INTO leaves no WAL beside it). */
function sqliteTemplateFile(): Promise<string> {
  if (!sqliteTemplate) {
    sqliteTemplate = (async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'zapdesk-template-'));
      const work = path.join(dir, 'work.db');
      await migrateAndGuard(work);
      const file = path.join(dir, 'template.db');
      const raw = new Sqlite(work);
      try {
        raw.prepare('VACUUM INTO ?').run(file);
      } finally {
        raw.close();
      }
      return file;
    })();
    // A failed build is not remembered: the next app tries again.
    sqliteTemplate.catch(() => (sqliteTemplate = undefined));
  }
  return sqliteTemplate;
}

/** This process's migrated PostgreSQL database beside `baseUrl`'s, by name; nobody stays connected to it. */
function postgresTemplateName(baseUrl: string, run: string): Promise<string> {
  let made = postgresTemplates.get(baseUrl);
  if (!made) {
    made = (async () => {
      const name = `${templatePrefix(run)}${process.pid}`;
      await runOn(baseUrl, `DROP DATABASE IF EXISTS ${name}`);
      await runOn(baseUrl, `CREATE DATABASE ${name} TEMPLATE template0`);
      await migrateAndGuard(urlOf(baseUrl, name));
      return name;
    })();
    made.catch(() => postgresTemplates.delete(baseUrl));
    postgresTemplates.set(baseUrl, made);
  }
  return made;
}

/**
 * Makes `target` a migrated, guarded database when a test run is under way: a SQLite file that does
 * not exist yet (copied), or a PostgreSQL database name to create beside `baseUrl`'s. Answers false
 * (nothing done) outside a test run, or for an SQLite file that already exists.
 */
export async function migratedCopy(target: { sqliteFile: string } | { postgres: { baseUrl: string; name: string } }): Promise<boolean> {
  const run = runId();
  if (!run) return false;
  if ('sqliteFile' in target) {
    if (existsSync(target.sqliteFile)) return false;
    copyFileSync(await sqliteTemplateFile(), target.sqliteFile);
    return true;
  }
  const { baseUrl, name } = target.postgres;
  const template = await postgresTemplateName(baseUrl, run);
  await runOn(baseUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  return true;
}

/**
 * For tests that hand a database URL to the real server (startServer, a server process): migrates
 * the database and installs the guard before the server opens it (or copies a migrated one, for an
 * SQLite file not made yet); the server's own migration run then finds nothing to do. Safe to call
 * again on the same database.
 */
export async function prepareGuardedDatabase(databaseUrl: string): Promise<void> {
  if (!isPostgresUrl(databaseUrl) && (await migratedCopy({ sqliteFile: databaseUrl }))) return;
  await migrateAndGuard(databaseUrl);
}

/** Drops the PostgreSQL templates a run made (its global teardown). */
export function dropPostgresTemplates(baseUrl: string, run: string): Promise<void> {
  return withClient(baseUrl, async (c) => {
    const { rows } = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [templatePrefix(run)]);
    for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS ${datname}`);
  });
}

/** One statement on a connection of its own (CREATE and DROP DATABASE cannot run in a pool's transaction). */
export function runOn(baseUrl: string, statement: string): Promise<void> {
  return withClient(baseUrl, async (c) => void (await c.query(statement)));
}

async function withClient(baseUrl: string, work: (c: pg.Client) => Promise<void>): Promise<void> {
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  try {
    await work(c);
  } finally {
    await c.end();
  }
}

export function urlOf(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
