// Sync watermarks per (company, table) instead of per company: a pull after a change re-lists only
// the views that read the changed table (a new message no longer re-lists users, tags and quick
// messages). Same trigger rules as 20261122T010030: insert, delete, or a new `version` of a
// synced row; any change of the join tables; companies and plans on a version change.
// The company's watermark is the sum of its counters (each only grows, so the sum moves iff one does).
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './lib/v1.ts';

const VERSIONED = [
  'settings', 'users', 'queue_integrations', 'queues', 'queue_options', 'whatsapps', 'contacts',
  'contact_custom_fields', 'tickets', 'tags', 'ticket_notes', 'messages', 'quick_messages', 'schedules',
  'announcements', 'chats', 'chat_users', 'chat_messages', 'files', 'files_options', 'prompts', 'flows',
  'flow_campaigns', 'contact_lists', 'campaigns', 'campaign_settings', 'invoices',
];
const LINKS = ['user_queues', 'whatsapp_queues', 'ticket_tags'];

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = dialectOf(db) === 'postgres';
  const run = (statement: string) => sql.raw(statement).execute(db);

  // The per-company counters and their triggers go.
  for (const t of [...VERSIONED, ...LINKS]) {
    for (const suffix of ['ins', 'del', 'upd', 'insdel', '']) {
      const name = suffix ? `${t}_sync_wm_${suffix}` : `${t}_sync_wm`;
      await run(pg ? `DROP TRIGGER IF EXISTS ${name} ON ${t}` : `DROP TRIGGER IF EXISTS ${name}`);
    }
  }
  for (const name of ['companies_sync_wm_ins', 'companies_sync_wm_upd']) await run(pg ? `DROP TRIGGER IF EXISTS ${name} ON companies` : `DROP TRIGGER IF EXISTS ${name}`);
  await run(pg ? 'DROP TRIGGER IF EXISTS plans_sync_wm_upd ON plans' : 'DROP TRIGGER IF EXISTS plans_sync_wm_upd');
  if (pg) {
    await run('DROP FUNCTION IF EXISTS sync_bump_watermark()');
    await run('DROP FUNCTION IF EXISTS sync_bump_company_watermark()');
    await run('DROP FUNCTION IF EXISTS sync_bump_plan_watermark()');
  }
  await db.schema.dropTable('sync_watermarks').execute();

  // No foreign key: rows of a deleted company are harmless, and cascaded deletes must not trip on it.
  await db.schema
    .createTable('sync_versions')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('tbl', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('sync_versions_pk', ['company_id', 'tbl'])
    .execute();

  const upsert = (company: string, table: string) =>
    `INSERT INTO sync_versions (company_id, tbl, version) VALUES (${company}, ${table}, 1) ON CONFLICT (company_id, tbl) DO UPDATE SET version = sync_versions.version + 1`;

  if (pg) {
    await run(`CREATE FUNCTION sync_bump_table() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN ${upsert('OLD.company_id', 'TG_TABLE_NAME')}; END IF;
        IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.company_id IS DISTINCT FROM OLD.company_id) THEN ${upsert('NEW.company_id', 'TG_TABLE_NAME')}; END IF;
        RETURN NULL;
      END $$`);
    await run(`CREATE FUNCTION sync_bump_company() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN ${upsert('NEW.id', "'companies'")}; RETURN NULL; END $$`);
    await run(`CREATE FUNCTION sync_bump_plan() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO sync_versions (company_id, tbl, version) SELECT id, 'plans', 1 FROM companies WHERE plan_id = NEW.id
        ON CONFLICT (company_id, tbl) DO UPDATE SET version = sync_versions.version + 1;
        RETURN NULL;
      END $$`);
    for (const t of VERSIONED) {
      await run(`CREATE TRIGGER ${t}_sync_v_insdel AFTER INSERT OR DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION sync_bump_table()`);
      await run(`CREATE TRIGGER ${t}_sync_v_upd AFTER UPDATE ON ${t} FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version) EXECUTE FUNCTION sync_bump_table()`);
    }
    for (const t of LINKS) await run(`CREATE TRIGGER ${t}_sync_v AFTER INSERT OR UPDATE OR DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION sync_bump_table()`);
    await run(`CREATE TRIGGER companies_sync_v AFTER UPDATE ON companies FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version) EXECUTE FUNCTION sync_bump_company()`);
    await run(`CREATE TRIGGER plans_sync_v AFTER UPDATE ON plans FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version) EXECUTE FUNCTION sync_bump_plan()`);
    return;
  }

  for (const t of [...VERSIONED, ...LINKS]) {
    const onlyVersionChanges = VERSIONED.includes(t) ? 'WHEN new.version IS NOT old.version ' : '';
    await run(`CREATE TRIGGER ${t}_sync_v_ins AFTER INSERT ON ${t} BEGIN ${upsert('new.company_id', `'${t}'`)}; END`);
    await run(`CREATE TRIGGER ${t}_sync_v_del AFTER DELETE ON ${t} BEGIN ${upsert('old.company_id', `'${t}'`)}; END`);
    await run(`CREATE TRIGGER ${t}_sync_v_upd AFTER UPDATE ON ${t} ${onlyVersionChanges}BEGIN ${upsert('old.company_id', `'${t}'`)}; ${upsert('new.company_id', `'${t}'`)}; END`);
  }
  await run(`CREATE TRIGGER companies_sync_v AFTER UPDATE ON companies WHEN new.version IS NOT old.version BEGIN ${upsert('new.id', "'companies'")}; END`);
  await run(`CREATE TRIGGER plans_sync_v AFTER UPDATE ON plans WHEN new.version IS NOT old.version BEGIN
    INSERT INTO sync_versions (company_id, tbl, version) SELECT id, 'plans', 1 FROM companies WHERE plan_id = new.id
    ON CONFLICT (company_id, tbl) DO UPDATE SET version = sync_versions.version + 1; END`);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
