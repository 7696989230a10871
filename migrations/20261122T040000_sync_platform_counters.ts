// Platform-wide rows (announcements: written by the super-admin, read by every company) count
// their changes under company 0 in sync_versions, a row every company's pull reads beside its own
// counters. Before this, an announcement bumped only the super-admin's company, so other companies'
// pulls answered "no change" until something of their own moved.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './lib/v1.ts';

const PLATFORM = 0;
const bump = `INSERT INTO sync_versions (company_id, tbl, version) VALUES (${PLATFORM}, 'announcements', 1) ON CONFLICT (company_id, tbl) DO UPDATE SET version = sync_versions.version + 1`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = dialectOf(db) === 'postgres';
  const run = (statement: string) => sql.raw(statement).execute(db);
  if (pg) {
    await run('DROP TRIGGER IF EXISTS announcements_sync_v_insdel ON announcements');
    await run('DROP TRIGGER IF EXISTS announcements_sync_v_upd ON announcements');
    await run(`CREATE FUNCTION sync_bump_platform() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN ${bump}; RETURN NULL; END $$`);
    await run('CREATE TRIGGER announcements_sync_v_insdel AFTER INSERT OR DELETE ON announcements FOR EACH ROW EXECUTE FUNCTION sync_bump_platform()');
    await run('CREATE TRIGGER announcements_sync_v_upd AFTER UPDATE ON announcements FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version) EXECUTE FUNCTION sync_bump_platform()');
  } else {
    for (const s of ['ins', 'del', 'upd']) await run(`DROP TRIGGER IF EXISTS announcements_sync_v_${s}`);
    await run(`CREATE TRIGGER announcements_sync_v_ins AFTER INSERT ON announcements BEGIN ${bump}; END`);
    await run(`CREATE TRIGGER announcements_sync_v_del AFTER DELETE ON announcements BEGIN ${bump}; END`);
    await run(`CREATE TRIGGER announcements_sync_v_upd AFTER UPDATE ON announcements WHEN new.version IS NOT old.version BEGIN ${bump}; END`);
  }
  // Every company's watermark now includes this counter, so no CVR stamped before can match.
  await run(bump);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
