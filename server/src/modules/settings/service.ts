// Company settings (spec/01 §3, §5): a key/value list per company, each key with its allowed values.
import { AppError, type Setting, type SettingKey } from '@zapdesk/sync';
import type { Actor } from '../../context.ts';
import { nowIso, type Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { toSettingDto, toSettingDtos } from './dto.ts';

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

/** Every setting of the company, defaults filled (dto.ts). */
export async function findSettings(db: Database, companyId: number): Promise<Setting[]> {
  return toSettingDtos(await tenant(db, companyId).selectFrom('settings').select(['settings.key', 'settings.value']).execute());
}

/**
 * Writes one setting, creating the row when missing; every write bumps the row version for sync,
 * and the company's users pull it once the write commits.
 */
export async function upsertSetting(tx: Tx, companyId: number, key: SettingKey, value: string): Promise<Setting> {
  const t = nowIso();
  const row = await tenant(tx.db, companyId)
    .insertInto('settings', { key, value, createdAt: t, updatedAt: t })
    .onConflict((oc) =>
      oc.columns(['companyId', 'key']).doUpdateSet((eb) => ({
        value,
        updatedAt: t,
        version: eb(eb.ref('settings.version'), '+', 1),
      })),
    )
    .returning(['key', 'value'])
    .executeTakeFirstOrThrow();
  tx.effects.poke(companyId);
  return toSettingDto(row);
}
