// Company settings (spec/01 §3, §5): a key/value list per company, each key with its allowed values.
import { AppError, DEFAULT_SETTINGS, SETTING_KEYS, type Setting, type SettingKey } from '@zapdesk/sync';
import type { Actor } from '../../context.ts';
import { nowIso, type Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';

/**
 * The company whose settings a request reads or writes. Only the super-admin may name another
 * company; anyone else naming one is refused rather than silently served their own, so a write
 * meant for another company never lands in theirs.
 */
export async function resolveSettingsCompany(db: Database, actor: Actor, requested: number | undefined): Promise<number> {
  if (requested === undefined || requested === actor.companyId) return actor.companyId;
  if (!actor.super) throw new AppError('ERR_NO_PERMISSION');
  const company = await db.selectFrom('companies').select('id').where('id', '=', requested).executeTakeFirst();
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
  return company.id;
}

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
