// A mark per ticket that moves whenever one of its messages is inserted, deleted, changes version
// or moves to another ticket. The message view (modules/messages/view.ts) keeps each ticket's newest
// messages listed in memory under its mark and lists again only the tickets whose mark moved: after
// one new message, one ticket's window instead of every visible ticket's.
// No foreign key: a deleted ticket's mark stays, so a reused ticket id never meets an old mark again.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = dialectOf(db) === 'postgres';
  const run = (statement: string) => sql.raw(statement).execute(db);

  await db.schema
    .createTable('ticket_message_marks')
    .addColumn('ticket_id', 'integer', (c) => c.primaryKey())
    .addColumn('mark', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await run('INSERT INTO ticket_message_marks (ticket_id, mark) SELECT DISTINCT ticket_id, 1 FROM messages');

  const bump = (ticket: string) =>
    `INSERT INTO ticket_message_marks (ticket_id, mark) VALUES (${ticket}, 1) ON CONFLICT (ticket_id) DO UPDATE SET mark = ticket_message_marks.mark + 1`;
  if (pg) {
    await run(`CREATE FUNCTION ticket_message_mark() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN ${bump('OLD.ticket_id')}; END IF;
        IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.ticket_id IS DISTINCT FROM OLD.ticket_id) THEN ${bump('NEW.ticket_id')}; END IF;
        RETURN NULL;
      END $$`);
    await run('CREATE TRIGGER messages_mark_insdel AFTER INSERT OR DELETE ON messages FOR EACH ROW EXECUTE FUNCTION ticket_message_mark()');
    await run(`CREATE TRIGGER messages_mark_upd AFTER UPDATE ON messages FOR EACH ROW
      WHEN (OLD.version IS DISTINCT FROM NEW.version OR OLD.ticket_id IS DISTINCT FROM NEW.ticket_id) EXECUTE FUNCTION ticket_message_mark()`);
    return;
  }
  await run(`CREATE TRIGGER messages_mark_ins AFTER INSERT ON messages BEGIN ${bump('new.ticket_id')}; END`);
  await run(`CREATE TRIGGER messages_mark_del AFTER DELETE ON messages BEGIN ${bump('old.ticket_id')}; END`);
  await run(`CREATE TRIGGER messages_mark_upd AFTER UPDATE ON messages
    WHEN new.version IS NOT old.version OR new.ticket_id IS NOT old.ticket_id
    BEGIN ${bump('old.ticket_id')};
      INSERT INTO ticket_message_marks (ticket_id, mark) SELECT new.ticket_id, 1 WHERE new.ticket_id IS NOT old.ticket_id
      ON CONFLICT (ticket_id) DO UPDATE SET mark = ticket_message_marks.mark + 1; END`);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
