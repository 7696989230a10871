// SQLite: the message search index (ticket_messages_fts, 20261122T041500) is fed after the commit,
// in batches, instead of by a trigger on every insert. FTS5 made each stored message cost about
// 30 µs more (tokenising it, and a new index segment flushed by every commit); indexed a few
// thousand at a time, the same rows cost about 4 µs each. An inserted message is queued (its id in
// ticket_messages_fts_queue, a rowid table); server/src/db/message-index.ts moves the queue into the
// index (a job every moment, and before every search, so a search still finds what was just stored).
// A message deleted or edited while queued has nothing in the index yet: its triggers only drop it
// from the queue (the indexer reads the body as it then is). PostgreSQL (tsvector + GIN, whose
// pending list already batches) is unchanged.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  const run = (statement: string) => sql.raw(statement).execute(db);
  const key = (row: 'new' | 'old') => `${row}.ticket_id * 4294967296 + ${row}.id`;
  const indexed = (row: 'old') => `NOT EXISTS (SELECT 1 FROM ticket_messages_fts_queue WHERE message_id = ${row}.id)`;
  await run('CREATE TABLE ticket_messages_fts_queue (message_id INTEGER PRIMARY KEY)');
  for (const name of ['ticket_messages_fts_ai', 'ticket_messages_fts_ad', 'ticket_messages_fts_au']) await run(`DROP TRIGGER ${name}`);
  await run('CREATE TRIGGER ticket_messages_fts_ai AFTER INSERT ON messages BEGIN INSERT INTO ticket_messages_fts_queue (message_id) VALUES (new.id); END');
  await run(
    `CREATE TRIGGER ticket_messages_fts_ad AFTER DELETE ON messages BEGIN ` +
      `INSERT INTO ticket_messages_fts(ticket_messages_fts, rowid, body) SELECT 'delete', ${key('old')}, old.body WHERE ${indexed('old')}; ` +
      `DELETE FROM ticket_messages_fts_queue WHERE message_id = old.id; END`,
  );
  await run(
    `CREATE TRIGGER ticket_messages_fts_au AFTER UPDATE OF body ON messages WHEN ${indexed('old')} BEGIN ` +
      `INSERT INTO ticket_messages_fts(ticket_messages_fts, rowid, body) VALUES ('delete', ${key('old')}, old.body); ` +
      `INSERT INTO ticket_messages_fts(rowid, body) VALUES (${key('new')}, new.body); END`,
  );
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
