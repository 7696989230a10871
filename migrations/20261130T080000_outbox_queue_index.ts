// SQLite: the index that a lane reads its connection's queue through also holds what the read
// answers of each row (ticket, message, attempts, due time, origin), so the read-ahead walks the
// index alone. It runs on the read-only connection, whose page cache starts cold after any commit
// elsewhere (nearly every read, under load): 16 queued rows sit on as many table pages but on one or
// two index pages. The old index is its prefix, so every query that used it uses this one.
// PostgreSQL is unchanged.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await sql`CREATE INDEX outbox_company_whatsapp_queue ON outbox (company_id, whatsapp_id, state, id, ticket_id, message_id, attempts, not_before, origin)`.execute(db);
  await sql`DROP INDEX outbox_company_whatsapp_state`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
