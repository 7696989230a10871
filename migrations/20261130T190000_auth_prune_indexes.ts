// Pruning sign-in bookkeeping (server/src/jobs/auth-prune.ts): every refresh adds a refresh token and
// every sign-in a session, and the job deletes the ones past their life. It looks them up across
// companies by time: refresh tokens by expires_at, sessions by last_used_at (when their newest token
// was issued). Without these indexes each of its slices would read the platform's whole tables while
// holding SQLite's only writer. Like the presence job's users_online_last_seen, these serve a
// platform-wide job, so they do not start with company_id.
import { sql, type Kysely } from 'kysely';

const INDEXES: [name: string, table: string, column: string][] = [
  ['refresh_tokens_expires', 'refresh_tokens', 'expires_at'],
  ['user_sessions_last_used', 'user_sessions', 'last_used_at'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, column] of INDEXES) await sql`CREATE INDEX ${sql.ref(name)} ON ${sql.table(table)} (${sql.ref(column)})`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
