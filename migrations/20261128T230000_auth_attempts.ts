// Login, password-reset and sign-up attempt counters shared by every instance (PostgreSQL, several
// instances: DESIGN §11). Kept in memory per process, a client spreading its attempts over three
// instances had three times the limit. One row per key ("ip:<addr>", "acct:<email>"), a fixed window
// ending at reset_at (ISO time, like the other timestamps). SQLite serves one process, which keeps its counters in
// memory: the table exists there too but stays empty.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('auth_attempts')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_attempts_reset_at').on('auth_attempts').column('reset_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
