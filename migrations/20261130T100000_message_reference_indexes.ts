// Every row that references a message is found through an index when the message goes. A message's
// delete (a ticket's or a company's cascade, an echo removed) runs the foreign keys' actions: SQLite
// and PostgreSQL look up the referencing rows by the column, and without an index they read the whole
// table for each message. Deleting a company with 40,000 messages took 66-74 s on SQLite (10,000:
// 3.4 s), holding the only writer all along; with the quoted-message index alone, 0.48 s. Partial
// (non-null) indexes: most messages quote none, and most shippings and turns keep theirs.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX messages_quoted_msg ON messages (quoted_msg_id) WHERE quoted_msg_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX campaign_shippings_message ON campaign_shippings (message_id) WHERE message_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX assistant_turns_message ON assistant_turns (message_id) WHERE message_id IS NOT NULL`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
