// Sync watermarks: one counter per company, bumped by triggers whenever a synced row of that
// company is inserted, deleted, or updated with a new `version` (and on any change of the join
// tables that decide visibility). A pull whose CVR was computed at the current watermark answers
// "nothing changed" without reading the rows. Triggers, not application code, so no write path
// (services, jobs, cascades, other instances) can forget it.
// Also: each CVR row remembers the watermark it was computed at and the clients' lastMutationIDs.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './lib/v1.ts';

/** Tenant tables whose rows carry `version`: the watermark moves when a version does. */
const VERSIONED = [
  'settings', 'users', 'queue_integrations', 'queues', 'queue_options', 'whatsapps', 'contacts',
  'contact_custom_fields', 'tickets', 'tags', 'ticket_notes', 'messages', 'quick_messages', 'schedules',
  'announcements', 'chats', 'chat_users', 'chat_messages', 'files', 'files_options', 'prompts', 'flows',
  'flow_campaigns', 'contact_lists', 'campaigns', 'campaign_settings', 'invoices',
];
/** Join tables without `version` that decide who sees what: any change moves the watermark. */
const LINKS = ['user_queues', 'whatsapp_queues', 'ticket_tags'];

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = dialectOf(db) === 'postgres';
  await db.schema
    .createTable('sync_watermarks')
    .addColumn('company_id', 'integer', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`INSERT INTO sync_watermarks (company_id, version) SELECT id, 1 FROM companies`.execute(db);
  await db.schema.alterTable('replicache_cvrs').addColumn('watermark', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('replicache_cvrs').addColumn('clients', 'text', (c) => c.notNull().defaultTo('{}')).execute();

  const run = (statement: string) => sql.raw(statement).execute(db);
  if (pg) {
    await run(`CREATE FUNCTION sync_bump_watermark() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE sync_watermarks SET version = version + 1 WHERE company_id = NEW.company_id;
        ELSIF TG_OP = 'DELETE' THEN
          UPDATE sync_watermarks SET version = version + 1 WHERE company_id = OLD.company_id;
        ELSE
          UPDATE sync_watermarks SET version = version + 1 WHERE company_id IN (OLD.company_id, NEW.company_id);
        END IF;
        RETURN NULL;
      END $$`);
    await run(`CREATE FUNCTION sync_bump_company_watermark() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO sync_watermarks (company_id, version) VALUES (NEW.id, 1) ON CONFLICT (company_id) DO NOTHING;
        ELSE
          UPDATE sync_watermarks SET version = version + 1 WHERE company_id = NEW.id;
        END IF;
        RETURN NULL;
      END $$`);
    await run(`CREATE FUNCTION sync_bump_plan_watermark() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE sync_watermarks SET version = version + 1 WHERE company_id IN (SELECT id FROM companies WHERE plan_id = NEW.id);
        RETURN NULL;
      END $$`);
    for (const t of VERSIONED) {
      await run(`CREATE TRIGGER ${t}_sync_wm_insdel AFTER INSERT OR DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION sync_bump_watermark()`);
      await run(`CREATE TRIGGER ${t}_sync_wm_upd AFTER UPDATE ON ${t} FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version) EXECUTE FUNCTION sync_bump_watermark()`);
    }
    for (const t of LINKS) {
      await run(`CREATE TRIGGER ${t}_sync_wm AFTER INSERT OR UPDATE OR DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION sync_bump_watermark()`);
    }
    await run(`CREATE TRIGGER companies_sync_wm_ins AFTER INSERT ON companies FOR EACH ROW EXECUTE FUNCTION sync_bump_company_watermark()`);
    await run(`CREATE TRIGGER companies_sync_wm_upd AFTER UPDATE ON companies FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version) EXECUTE FUNCTION sync_bump_company_watermark()`);
    await run(`CREATE TRIGGER plans_sync_wm_upd AFTER UPDATE ON plans FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version) EXECUTE FUNCTION sync_bump_plan_watermark()`);
    return;
  }

  const bump = (companyIds: string) => `UPDATE sync_watermarks SET version = version + 1 WHERE company_id IN (${companyIds});`;
  for (const t of [...VERSIONED, ...LINKS]) {
    const onlyVersionChanges = VERSIONED.includes(t) ? 'WHEN new.version IS NOT old.version ' : '';
    await run(`CREATE TRIGGER ${t}_sync_wm_ins AFTER INSERT ON ${t} BEGIN ${bump('new.company_id')} END`);
    await run(`CREATE TRIGGER ${t}_sync_wm_del AFTER DELETE ON ${t} BEGIN ${bump('old.company_id')} END`);
    await run(`CREATE TRIGGER ${t}_sync_wm_upd AFTER UPDATE ON ${t} ${onlyVersionChanges}BEGIN ${bump('old.company_id, new.company_id')} END`);
  }
  await run(`CREATE TRIGGER companies_sync_wm_ins AFTER INSERT ON companies BEGIN INSERT OR IGNORE INTO sync_watermarks (company_id, version) VALUES (new.id, 1); END`);
  await run(`CREATE TRIGGER companies_sync_wm_upd AFTER UPDATE ON companies WHEN new.version IS NOT old.version BEGIN ${bump('new.id')} END`);
  await run(`CREATE TRIGGER plans_sync_wm_upd AFTER UPDATE ON plans WHEN new.version IS NOT old.version BEGIN ${bump('SELECT id FROM companies WHERE plan_id = new.id')} END`);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
