// Presence (server/src/realtime/presence.ts): users.online is set while a sync socket of the user is
// open and last_seen_at is touched on the heartbeat. The presence job looks every minute for online
// users whose last_seen_at went stale (their instance died); this partial index holds only the
// online users, so that pass reads a handful of rows, not the whole platform's users.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('users_online_last_seen').on('users').columns(['last_seen_at']).where(sql.ref('online'), '=', 1).execute();
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
