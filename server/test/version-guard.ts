// The version-bump rule (server/src/sync/README.md) as a check the tests enforce: in every test
// database, a BEFORE UPDATE trigger on each synced table refuses an update that changes a column a
// client sees while leaving `version` as it was. Such a write never reaches the clients (the pull
// compares versions, and the change counters of migration 20261122T010040 move only with
// `version`), so it fails the statement, hence the test, instead of going stale in silence.
// A foreign key's ON DELETE SET NULL is an update too, and is refused the same way.
// Test databases only: no migration creates these triggers, production has none.
import { sql, type Kysely } from 'kysely';
import type { Database, Dialect } from '../src/db/database.ts';

/**
 * The synced tables: VERSIONED of migrations/20261122T010040_sync_table_versions.ts, whose counter
 * moves when a row's `version` does, plus companies and plans, which the company view sends and
 * whose counters move on a version change as well. (version-guard.test.ts checks this list against
 * the counter triggers of a migrated database.)
 */
export const SYNCED_TABLES = [
  'settings', 'users', 'queue_integrations', 'queues', 'queue_options', 'whatsapps', 'contacts',
  'contact_custom_fields', 'tickets', 'tags', 'ticket_notes', 'messages', 'quick_messages', 'schedules',
  'announcements', 'chats', 'chat_users', 'chat_messages', 'files', 'files_options', 'prompts', 'flows',
  'flow_campaigns', 'contact_lists', 'campaigns', 'campaign_settings', 'invoices',
  'companies', 'plans',
] as const;

/**
 * Columns of synced tables that never reach a client, so writing them alone needs no version bump.
 * "Never reaches a client": absent from the table's sync view (server/src/sync/views/) and from
 * every REST dto that maps the row. Every other column is guarded, `updated_at` included (the
 * ticket, message, contact, connection, schedule, chat, user, company and plan dtos send it).
 * PostgreSQL's generated columns (the tsvector search columns) are left out by themselves: they
 * follow guarded columns, and a BEFORE trigger does not see their new value yet.
 */
export const INVISIBLE_COLUMNS: Partial<Record<(typeof SYNCED_TABLES)[number], Record<string, string>>> = {
  users: {
    last_seen_at: 'presence heartbeat (realtime/presence.ts), touched without a bump on purpose; not in the user view nor UserDto',
    password_hash: 'the argon2 hash: no view or dto sends it (users/dto.ts: "never the password hash")',
  },
  whatsapps: {
    lease_owner: "the instance holding the connection's session (channels/lease.ts); not in the connection view nor the dto",
    lease_expires_at: 'the lease heartbeat (channels/lease.ts), renewed every few seconds without a bump; not in the view nor the dto',
  },
  schedules: {
    claimed_by: "the sending job's claim (jobs/schedules.ts); not in the schedule view nor ScheduleDto",
    claimed_at: "the claim's time, refreshed by the job while it sends; not in the schedule view nor ScheduleDto",
  },
  messages: {
    // Nulled by the foreign key when the connection is deleted: re-sending every message of the
    // connection for a field nobody reads would be all cost (whatsapps/service.ts detaches only the
    // tickets and contacts, which do show their connection).
    whatsapp_id: 'the connection that carried the message, with wid its dedupe key and the ack lookup (pipeline/acks.ts); toMessageDtos leaves it out',
  },
  contacts: {
    import_key: 'the import run that created the contact (contacts/import-batch.ts, idempotent retries); toContactDto leaves it out',
    profile_pic_checked_at: 'when the picture was last asked of the channel (contacts/profile-picture.ts); toContactDto and the views leave it out',
  },
};

const GUARD = 'version_guard';

const excludedOf = (table: string) => Object.keys(INVISIBLE_COLUMNS[table as keyof typeof INVISIBLE_COLUMNS] ?? {});

/** Installs (or reinstalls: idempotent) the guard on every synced table of a migrated database. */
export async function installVersionGuard(db: Database, dialect: Dialect): Promise<void> {
  const raw = db.withoutPlugins() as unknown as Kysely<unknown>;
  const run = (statement: string) => sql.raw(statement).execute(raw);
  if (dialect === 'postgres') {
    // Which columns changed, reported by name; TG_ARGV names the table's invisible columns (NULL when none).
    await run(`CREATE OR REPLACE FUNCTION ${GUARD}() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE changed text;
      BEGIN
        SELECT string_agg(n.key, ', ' ORDER BY n.key) INTO changed
          FROM jsonb_each(to_jsonb(NEW) - COALESCE(TG_ARGV, '{}'::text[])) n
          WHERE n.value IS DISTINCT FROM (to_jsonb(OLD) -> n.key);
        IF changed IS NOT NULL THEN
          RAISE EXCEPTION 'version guard: %.{%} changed without version', TG_TABLE_NAME, changed;
        END IF;
        RETURN NEW;
      END $$`);
    for (const table of SYNCED_TABLES) {
      const generated = await sql<{ name: string }>`
        SELECT column_name AS name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = ${table} AND is_generated = 'ALWAYS'`.execute(raw);
      const skip = [...excludedOf(table), ...generated.rows.map((r) => r.name)];
      await run(`DROP TRIGGER IF EXISTS ${GUARD} ON ${table}`);
      await run(
        `CREATE TRIGGER ${GUARD} BEFORE UPDATE ON ${table} FOR EACH ROW WHEN (NEW.version IS NOT DISTINCT FROM OLD.version) ` +
          `EXECUTE FUNCTION ${GUARD}(${skip.map((c) => `'${c}'`).join(', ')})`,
      );
    }
    return;
  }
  for (const table of SYNCED_TABLES) {
    const info = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`.execute(raw);
    const skip = new Set(['version', ...excludedOf(table)]);
    const guarded = info.rows.map((r) => r.name).filter((c) => !skip.has(c)).sort();
    const changed = guarded.map((c) => `iif(new.${c} IS NOT old.${c}, '${c}, ', '')`).join(' || ');
    await run(`DROP TRIGGER IF EXISTS ${GUARD}_${table}`);
    await run(
      `CREATE TRIGGER ${GUARD}_${table} BEFORE UPDATE ON ${table} ` +
        `WHEN new.version IS old.version AND (${guarded.map((c) => `new.${c} IS NOT old.${c}`).join(' OR ')}) ` +
        `BEGIN SELECT RAISE(ABORT, 'version guard: ${table}.{' || rtrim(${changed}, ', ') || '} changed without version'); END`,
    );
  }
}

/**
 * Throws if the guard refused a write that something caught and only logged (a job's loop, an
 * effect, a route's error handler): each is a bug too. Harnesses call it once their app has closed.
 */
export function assertNoGuardViolations(lines: readonly { msg: string; data?: Record<string, unknown> }[]): void {
  const refused = lines.map((l) => `${l.msg} ${JSON.stringify(l.data ?? {})}`).filter((text) => text.includes('version guard'));
  if (refused.length) throw new Error(`version guard refused writes during this test:\n${refused.join('\n')}`);
}
