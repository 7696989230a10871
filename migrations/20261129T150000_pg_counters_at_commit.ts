// PostgreSQL: the sync counters (sync_versions) and the ticket message marks move at commit, not at
// each statement. An upsert of a counter row locks it until the transaction ends, so a statement's
// bump made every other writer of that company and table wait for the whole rest of the
// transaction; and two transactions that touched tables in different orders could deadlock on those
// rows, which is why a company's deliveries took turns under an advisory lock
// (server/src/inbound/group-commit.ts).
//
// Now a statement only notes what it changed, in settings local to the transaction, and the first
// note of a transaction inserts a row into sync_pending, whose deferred constraint trigger runs once
// at commit: it moves the marks (by ticket id), then the counters (by company and table), each in
// that sorted order. So the rows are locked only from the commit's start to its end, after every
// other lock of the transaction, always in the same order: no deadlock on them is possible. What a
// pull reads is unchanged: a counter still moves in the transaction that changed its table, so it is
// seen exactly when the change is; and it moves at most once per transaction.
// A savepoint rolled back takes its notes (and its sync_pending row, with its trigger event) along.
// Counters bumped by row triggers of companies, plans and announcements stay immediate: they are
// rare admin writes, and a flush never takes those counters, so they cannot wait on one another.
// SQLite (one writer): unchanged.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  const run = (statement: string) => sql.raw(statement).execute(db);

  // One row per writing transaction, deleted by its own trigger; unlogged: nothing of it matters after a crash.
  await run('CREATE UNLOGGED TABLE sync_pending (id bigserial PRIMARY KEY)');

  // Arms the flush once per transaction.
  await run(`CREATE FUNCTION sync_arm() RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF coalesce(current_setting('zapdesk.sync_armed', true), '') = '' THEN
        PERFORM set_config('zapdesk.sync_armed', '1', true);
        INSERT INTO sync_pending DEFAULT VALUES;
      END IF;
    END $$`);
  // The (company, table) pairs changed, each noted once ("id:table,"): a transaction has a few.
  await run(`CREATE FUNCTION sync_note_tables(companies int[], tbl text) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      noted text := coalesce(current_setting('zapdesk.sync_tables', true), '');
      company int;
    BEGIN
      IF coalesce(array_length(companies, 1), 0) = 0 THEN RETURN; END IF;
      PERFORM sync_arm();
      FOREACH company IN ARRAY companies LOOP
        IF company IS NOT NULL AND position(',' || company || ':' || tbl || ',' IN ',' || noted) = 0 THEN
          noted := noted || company || ':' || tbl || ',';
        END IF;
      END LOOP;
      PERFORM set_config('zapdesk.sync_tables', noted, true);
    END $$`);
  // The tickets whose messages changed ("id,"): many per statement, made distinct at the flush.
  await run(`CREATE FUNCTION sync_note_marks(tickets int[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF coalesce(array_length(tickets, 1), 0) = 0 THEN RETURN; END IF;
      PERFORM sync_arm();
      PERFORM set_config('zapdesk.sync_marks', coalesce(current_setting('zapdesk.sync_marks', true), '') || array_to_string(tickets, ',') || ',', true);
    END $$`);
  await run(`CREATE FUNCTION sync_flush() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      tables text := coalesce(current_setting('zapdesk.sync_tables', true), '');
      marks text := coalesce(current_setting('zapdesk.sync_marks', true), '');
    BEGIN
      -- Disarmed first: a write later in the commit (another deferred trigger) arms a new flush.
      PERFORM set_config('zapdesk.sync_armed', '', true);
      PERFORM set_config('zapdesk.sync_tables', '', true);
      PERFORM set_config('zapdesk.sync_marks', '', true);
      DELETE FROM sync_pending WHERE id = NEW.id;
      IF marks <> '' THEN
        INSERT INTO ticket_message_marks (ticket_id, mark)
          SELECT DISTINCT t::int, 1 FROM unnest(string_to_array(marks, ',')) AS t WHERE t <> '' ORDER BY 1
          ON CONFLICT (ticket_id) DO UPDATE SET mark = ticket_message_marks.mark + 1;
      END IF;
      IF tables <> '' THEN
        INSERT INTO sync_versions (company_id, tbl, version)
          SELECT split_part(p, ':', 1)::int, split_part(p, ':', 2), 1 FROM unnest(string_to_array(tables, ',')) AS p WHERE p <> '' ORDER BY 1, 2
          ON CONFLICT (company_id, tbl) DO UPDATE SET version = sync_versions.version + 1;
      END IF;
      RETURN NULL;
    END $$`);
  await run('CREATE CONSTRAINT TRIGGER sync_pending_flush AFTER INSERT ON sync_pending DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sync_flush()');

  // The statement triggers of 20261128T150000, same rules, noting instead of bumping.
  const note = (select: string) => `PERFORM sync_note_tables(array(SELECT DISTINCT company_id FROM (${select}) AS changed), TG_TABLE_NAME)`;
  await run(`CREATE OR REPLACE FUNCTION sync_bump_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${note('SELECT company_id FROM new_rows')};
      ELSIF TG_OP = 'DELETE' THEN ${note('SELECT company_id FROM old_rows')};
      ELSE ${note(`SELECT o.company_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.version IS DISTINCT FROM n.version
                   UNION SELECT n.company_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.version IS DISTINCT FROM n.version`)};
      END IF;
      RETURN NULL;
    END $$`);
  await run(`CREATE OR REPLACE FUNCTION sync_bump_link_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${note('SELECT company_id FROM new_rows')};
      ELSIF TG_OP = 'DELETE' THEN ${note('SELECT company_id FROM old_rows')};
      ELSE ${note('SELECT company_id FROM old_rows UNION SELECT company_id FROM new_rows')};
      END IF;
      RETURN NULL;
    END $$`);
  // The row trigger kept by tables without an id (chat_users).
  await run(`CREATE OR REPLACE FUNCTION sync_bump_table() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' THEN PERFORM sync_note_tables(ARRAY[OLD.company_id], TG_TABLE_NAME); END IF;
      IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.company_id IS DISTINCT FROM OLD.company_id) THEN PERFORM sync_note_tables(ARRAY[NEW.company_id], TG_TABLE_NAME); END IF;
      RETURN NULL;
    END $$`);
  const mark = (select: string) => `PERFORM sync_note_marks(array(SELECT DISTINCT ticket_id FROM (${select}) AS changed WHERE ticket_id IS NOT NULL))`;
  await run(`CREATE OR REPLACE FUNCTION ticket_message_mark_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${mark('SELECT ticket_id FROM new_rows')};
      ELSIF TG_OP = 'DELETE' THEN ${mark('SELECT ticket_id FROM old_rows')};
      ELSE ${mark(`SELECT o.ticket_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.version IS DISTINCT FROM n.version OR o.ticket_id IS DISTINCT FROM n.ticket_id
                   UNION SELECT n.ticket_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.ticket_id IS DISTINCT FROM n.ticket_id`)};
      END IF;
      RETURN NULL;
    END $$`);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
