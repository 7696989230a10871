// Ticket search over many messages (bench/ticket-search.bench.ts, server/src/modules/tickets/search.ts).
// - The list reads newest activity first (ORDER BY updated_at DESC); without a status filter that
//   order had no index, so a page of a company with many tickets sorted all of them. The search
//   walks tickets in this order too.
// - SQLite: the message index becomes ticket_messages_fts, a contentless FTS5 table whose rowid is
//   ticket_id * 2^32 + message id. A match then names its ticket (rowid >> 32) without reading the
//   messages table, which made "the tickets of these matching messages" cost a row lookup each
//   (hundreds of milliseconds for a common word over a million messages). Message ids stay below
//   2^31 (SQLite rowids of one table are dense), so rowids stay distinct and positive. A message
//   never moves to another ticket. Same tokenizer as before; triggers keep it, as they kept messages_fts.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('tickets_company_updated').on('tickets').columns(['company_id', 'updated_at', 'id']).execute();
  if (dialectOf(db) !== 'sqlite') return;
  const run = (statement: string) => sql.raw(statement).execute(db);
  for (const name of ['messages_fts_ai', 'messages_fts_ad', 'messages_fts_au']) await run(`DROP TRIGGER IF EXISTS ${name}`);
  await run('DROP TABLE IF EXISTS messages_fts');
  const key = (row: 'new' | 'old') => `${row}.ticket_id * 4294967296 + ${row}.id`;
  await run(`CREATE VIRTUAL TABLE ticket_messages_fts USING fts5(body, content='', tokenize='unicode61 remove_diacritics 2')`);
  await run(`CREATE TRIGGER ticket_messages_fts_ai AFTER INSERT ON messages BEGIN INSERT INTO ticket_messages_fts(rowid, body) VALUES (${key('new')}, new.body); END`);
  await run(`CREATE TRIGGER ticket_messages_fts_ad AFTER DELETE ON messages BEGIN INSERT INTO ticket_messages_fts(ticket_messages_fts, rowid, body) VALUES ('delete', ${key('old')}, old.body); END`);
  await run(
    `CREATE TRIGGER ticket_messages_fts_au AFTER UPDATE OF body ON messages BEGIN ` +
      `INSERT INTO ticket_messages_fts(ticket_messages_fts, rowid, body) VALUES ('delete', ${key('old')}, old.body); ` +
      `INSERT INTO ticket_messages_fts(rowid, body) VALUES (${key('new')}, new.body); END`,
  );
  await run('INSERT INTO ticket_messages_fts(rowid, body) SELECT ticket_id * 4294967296 + id, body FROM messages');
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
