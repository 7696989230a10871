// PostgreSQL: the sync counters (sync_versions, 20261122T010040) and the ticket message marks
// (20261127T000000) move once per statement instead of once per row. A batch of 200 inbound
// messages ran 200 upserts of its company's counter row and 200 of the marks; now one upsert per
// company and one per ticket, from the statement's transition tables. The counters only need to move
// when something changed (their readers compare, never count), so what they read is unchanged.
// PostgreSQL allows transition tables only on single-event triggers: one trigger per event. The
// tables are found from the row triggers they replace, so every synced table is covered (but one,
// below). SQLite's triggers are row triggers by nature (and cheap there): unchanged.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  const run = (statement: string) => sql.raw(statement).execute(db);
  const bump = (select: string) =>
    `INSERT INTO sync_versions (company_id, tbl, version) SELECT DISTINCT company_id, TG_TABLE_NAME, 1 FROM (${select}) AS changed WHERE company_id IS NOT NULL
     ON CONFLICT (company_id, tbl) DO UPDATE SET version = sync_versions.version + 1`;

  // Versioned tables: an insert, a delete, or an update that gave a row a new version (the old and
  // the new company's counters, as the row trigger did).
  await run(`CREATE FUNCTION sync_bump_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${bump('SELECT company_id FROM new_rows')};
      ELSIF TG_OP = 'DELETE' THEN ${bump('SELECT company_id FROM old_rows')};
      ELSE ${bump(`SELECT o.company_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.version IS DISTINCT FROM n.version
                   UNION SELECT n.company_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.version IS DISTINCT FROM n.version`)};
      END IF;
      RETURN NULL;
    END $$`);
  // Link tables (no version): any change.
  await run(`CREATE FUNCTION sync_bump_link_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${bump('SELECT company_id FROM new_rows')};
      ELSIF TG_OP = 'DELETE' THEN ${bump('SELECT company_id FROM old_rows')};
      ELSE ${bump('SELECT company_id FROM old_rows UNION SELECT company_id FROM new_rows')};
      END IF;
      RETURN NULL;
    END $$`);

  const found = await sql<{ tgname: string; relname: string }>`
    SELECT t.tgname, c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    WHERE NOT t.tgisinternal AND (t.tgname LIKE '%\\_sync\\_v\\_insdel' OR t.tgname LIKE '%\\_sync\\_v\\_upd' OR t.tgname LIKE '%\\_sync\\_v')
      AND c.relname NOT IN ('companies', 'plans', 'announcements')`.execute(db);
  // A versioned table without an `id` (chat_users) keeps its row triggers: its old and new rows
  // cannot be paired, and it changes seldom.
  const withId = await sql<{ table_name: string }>`SELECT table_name FROM information_schema.columns WHERE column_name = 'id' AND table_schema = current_schema()`.execute(db);
  const hasId = new Set(withId.rows.map((r) => r.table_name));
  const versioned = new Set(found.rows.filter((r) => r.tgname === `${r.relname}_sync_v_insdel` && hasId.has(r.relname)).map((r) => r.relname));
  const links = new Set(found.rows.filter((r) => r.tgname === `${r.relname}_sync_v`).map((r) => r.relname));
  for (const table of versioned) {
    await run(`DROP TRIGGER ${table}_sync_v_insdel ON ${table}`);
    await run(`DROP TRIGGER IF EXISTS ${table}_sync_v_upd ON ${table}`);
    await run(`CREATE TRIGGER ${table}_sync_s_ins AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sync_bump_rows()`);
    await run(`CREATE TRIGGER ${table}_sync_s_del AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sync_bump_rows()`);
    await run(`CREATE TRIGGER ${table}_sync_s_upd AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sync_bump_rows()`);
  }
  for (const table of links) {
    await run(`DROP TRIGGER ${table}_sync_v ON ${table}`);
    await run(`CREATE TRIGGER ${table}_sync_s_ins AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sync_bump_link_rows()`);
    await run(`CREATE TRIGGER ${table}_sync_s_del AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sync_bump_link_rows()`);
    await run(`CREATE TRIGGER ${table}_sync_s_upd AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sync_bump_link_rows()`);
  }

  // The marks: each ticket that gained or lost a message, or one whose message changed version or
  // moved (both tickets then), once per statement.
  const mark = (select: string) =>
    `INSERT INTO ticket_message_marks (ticket_id, mark) SELECT DISTINCT ticket_id, 1 FROM (${select}) AS changed WHERE ticket_id IS NOT NULL
     ON CONFLICT (ticket_id) DO UPDATE SET mark = ticket_message_marks.mark + 1`;
  await run(`CREATE FUNCTION ticket_message_mark_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${mark('SELECT ticket_id FROM new_rows')};
      ELSIF TG_OP = 'DELETE' THEN ${mark('SELECT ticket_id FROM old_rows')};
      ELSE ${mark(`SELECT o.ticket_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.version IS DISTINCT FROM n.version OR o.ticket_id IS DISTINCT FROM n.ticket_id
                   UNION SELECT n.ticket_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.ticket_id IS DISTINCT FROM n.ticket_id`)};
      END IF;
      RETURN NULL;
    END $$`);
  await run('DROP TRIGGER messages_mark_insdel ON messages');
  await run('DROP TRIGGER messages_mark_upd ON messages');
  await run('DROP FUNCTION ticket_message_mark()');
  await run('CREATE TRIGGER messages_mark_s_ins AFTER INSERT ON messages REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_message_mark_rows()');
  await run('CREATE TRIGGER messages_mark_s_del AFTER DELETE ON messages REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_message_mark_rows()');
  await run('CREATE TRIGGER messages_mark_s_upd AFTER UPDATE ON messages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_message_mark_rows()');
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
