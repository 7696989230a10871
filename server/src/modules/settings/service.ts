// Company settings (spec/01 §3, §5): a key/value list per company, each key with its allowed values.
import { DEFAULT_SETTINGS, SETTING_KEYS, type Setting, type SettingKey } from '@zapdesk/sync';
import { nowIso, type Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';

/**
 * The stored settings, completed with the default of every known key the company has no row for
 * (a company created before a key existed still shows, and behaves by, that key's default).
 */
export async function findSettings(db: Database, companyId: number): Promise<Setting[]> {
  const rows = await tenant(db, companyId).selectFrom('settings').select(['settings.key', 'settings.value']).execute();
  const byKey = new Map<string, string>(SETTING_KEYS.map((key) => [key, DEFAULT_SETTINGS[key]]));
  for (const row of rows) byKey.set(row.key, row.value);
  return [...byKey].map(([key, value]) => ({ key, value })).sort((a, b) => a.key.localeCompare(b.key));
}

/**
 * Writes one setting, creating the row when missing; every write bumps the row version for sync,
 * and the company's users pull it once the write commits.
 */
export async function upsertSetting(tx: Tx, companyId: number, key: SettingKey, value: string): Promise<Setting> {
  const t = nowIso();
  await tenant(tx.db, companyId)
    .insertInto('settings', { key, value, createdAt: t, updatedAt: t })
    .onConflict((oc) =>
      oc.columns(['companyId', 'key']).doUpdateSet((eb) => ({
        value,
        updatedAt: t,
        version: eb(eb.ref('settings.version'), '+', 1),
      })),
    )
    .execute();
  tx.effects.poke(companyId);
  return { key, value };
}
