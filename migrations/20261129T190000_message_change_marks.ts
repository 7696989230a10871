// SQLite: which of a ticket's messages changed since a mark, so the message view
// (modules/messages/view.ts) brings a ticket's window up to date by reading what changed rather
// than its 50 newest messages again. Under traffic a pull finds a few dozen tickets changed by a
// message or two each, and re-reading their windows was a third of the pull.
//
// `message_marks` holds, per message, the ticket's mark (migration 20261127T000000) as it stood
// right after the message's last insert, version change or move: the rows of a ticket changed
// since mark M are those with a mark above M. SQLite has one writer, so marks move in commit order
// and a reader that saw mark M has seen every change marked M or below. `removed` counts the
// messages a ticket lost (deleted, or moved to another ticket): a window cannot be brought up to
// date by what changed when one of its rows is gone, so a move of `removed` re-reads it.
// A message without a row here has not changed since this migration, before any window was read.
//
// PostgreSQL moves its marks at commit (migration 20261129T150000), after the rows were written,
// so its rows cannot carry them: its windows are read whole, as before.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  const run = (statement: string) => sql.raw(statement).execute(db);

  await run(`CREATE TABLE message_marks (
    message_id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL,
    ticket_id INTEGER NOT NULL,
    mark INTEGER NOT NULL)`);
  await run('CREATE INDEX message_marks_ticket ON message_marks (company_id, ticket_id, mark)');
  await run('ALTER TABLE ticket_message_marks ADD COLUMN removed INTEGER NOT NULL DEFAULT 0');

  const bump = (ticket: string) =>
    `INSERT INTO ticket_message_marks (ticket_id, mark) VALUES (${ticket}, 1) ON CONFLICT (ticket_id) DO UPDATE SET mark = ticket_message_marks.mark + 1`;
  // The message's row takes its ticket's mark as it now stands (just moved by this change).
  const stamp = `INSERT INTO message_marks (message_id, company_id, ticket_id, mark)
      SELECT new.id, new.company_id, new.ticket_id, mark FROM ticket_message_marks WHERE ticket_id = new.ticket_id
      ON CONFLICT (message_id) DO UPDATE SET company_id = excluded.company_id, ticket_id = excluded.ticket_id, mark = excluded.mark`;

  await run('DROP TRIGGER messages_mark_ins');
  await run('DROP TRIGGER messages_mark_del');
  await run('DROP TRIGGER messages_mark_upd');
  await run(`CREATE TRIGGER messages_mark_ins AFTER INSERT ON messages BEGIN ${bump('new.ticket_id')}; ${stamp}; END`);
  await run(`CREATE TRIGGER messages_mark_del AFTER DELETE ON messages BEGIN
      INSERT INTO ticket_message_marks (ticket_id, mark, removed) VALUES (old.ticket_id, 1, 1)
      ON CONFLICT (ticket_id) DO UPDATE SET mark = ticket_message_marks.mark + 1, removed = ticket_message_marks.removed + 1;
      DELETE FROM message_marks WHERE message_id = old.id; END`);
  await run(`CREATE TRIGGER messages_mark_upd AFTER UPDATE ON messages
    WHEN new.version IS NOT old.version OR new.ticket_id IS NOT old.ticket_id
    BEGIN ${bump('old.ticket_id')};
      UPDATE ticket_message_marks SET removed = removed + 1 WHERE ticket_id = old.ticket_id AND new.ticket_id IS NOT old.ticket_id;
      INSERT INTO ticket_message_marks (ticket_id, mark) SELECT new.ticket_id, 1 WHERE new.ticket_id IS NOT old.ticket_id
      ON CONFLICT (ticket_id) DO UPDATE SET mark = ticket_message_marks.mark + 1;
      ${stamp}; END`);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
