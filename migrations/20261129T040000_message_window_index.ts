// SQLite: the index that lists a ticket's messages newest first also holds what the sync view's
// windows read of each (version, sender, quoted message), so a window is read from the index alone.
// A pull after any write starts with a cold page cache (SQLite drops a connection's cache when
// another connection committed), and a ticket's 50 newest messages sit on ~50 table pages but on one
// or two index pages: the message view's windows (modules/messages/view.ts) read a tenth of the pages.
// The old index is its prefix, so every query that used it uses this one. PostgreSQL (a LATERAL
// read per ticket through its own index) is unchanged.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await sql`CREATE INDEX messages_company_ticket_window ON messages (company_id, ticket_id, created_at, id, version, contact_id, quoted_msg_id)`.execute(db);
  await sql`DROP INDEX messages_company_ticket_created`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
