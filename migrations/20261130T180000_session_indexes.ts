// Sign-in and sync bookkeeping looked up by the columns a delete's foreign keys use. Every sign-in
// adds a session and every refresh a refresh token (kept until they expire), every browser a sync
// client group and every page load a client; their only indexes started with company_id, so deleting
// one user's session read every company's refresh tokens, and deleting a user (or a company's users)
// read all the sessions, tokens and client groups of the platform once per row. Measured on SQLite:
// a user with 200 sessions beside 120,000 refresh tokens held the only writer 2.6 s.
import { sql, type Kysely } from 'kysely';

const INDEXES: [name: string, table: string, column: string][] = [
  ['refresh_tokens_session', 'refresh_tokens', 'session_id'],
  ['refresh_tokens_user', 'refresh_tokens', 'user_id'],
  ['user_sessions_user', 'user_sessions', 'user_id'],
  ['replicache_client_groups_user', 'replicache_client_groups', 'user_id'],
  ['replicache_clients_group', 'replicache_clients', 'client_group_id'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, column] of INDEXES) await sql`CREATE INDEX ${sql.ref(name)} ON ${sql.table(table)} (${sql.ref(column)})`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
