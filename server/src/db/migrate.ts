import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './database.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/', import.meta.url));

/** Migrations are the timestamped files at the top of migrations/ (lib/ holds their frozen helpers). */
class FolderProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{8}T\d{6}_.+\.ts$/.test(f)).sort();
    const out: Record<string, Migration> = {};
    for (const file of files) {
      out[file.replace(/\.ts$/, '')] = (await import(pathToFileURL(path.join(MIGRATIONS_DIR, file)).href)) as Migration;
    }
    return out;
  }
}

export async function migrateToLatest(db: Database): Promise<string[]> {
  // The migrations speak snake_case themselves, so they run on a handle without the camel-case plugin.
  const raw = db.withoutPlugins() as unknown as Kysely<unknown>;
  // On PostgreSQL the bookkeeping tables go in the current schema (tests give each run its own).
  const isPg = raw.getExecutor().adapter.constructor.name.toLowerCase().includes('postgres');
  const schema = isPg ? (await sql<{ s: string }>`select current_schema() as s`.execute(raw)).rows[0]?.s : undefined;
  const migrator = new Migrator({ db: raw, provider: new FolderProvider(), ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
