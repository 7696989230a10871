// Ticket search, last word as a prefix (server/src/modules/tickets/search.ts). FTS5 answers a
// prefix query ("entreg"*) by merging the whole doclist of every word it starts into one list
// before returning its first row, a cost paid again by every query that names it, whatever rowid
// range it asks for. The search instead lists the words of the index that start with the prefix
// and asks for them by name ("entrega" OR "entregue"), which FTS5 answers by seeking within each
// word's doclist. ticket_messages_vocab is that list: an fts5vocab view of ticket_messages_fts,
// no data of its own. PostgreSQL has nothing to add (to_tsquery's `word:*` reads the GIN index).
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await sql`CREATE VIRTUAL TABLE ticket_messages_vocab USING fts5vocab(ticket_messages_fts, row)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
