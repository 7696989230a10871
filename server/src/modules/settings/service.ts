// Company settings (spec/01 §3, §5): a key/value list per company, each key with its allowed values.
import { type Setting, type SettingKey } from '@zapdesk/sync';
import { nowIso, type Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { toSettingDto, toSettingDtos } from './dto.ts';
import { connectionsChanged } from '../../inbound/connection-context.ts';

/**
/** Every setting of the company, defaults filled (dto.ts). */
export async function findSettings(db: Database, companyId: number): Promise<Setting[]> {
  return toSettingDtos(await tenant(db, companyId).selectFrom('settings').select(['settings.key', 'settings.value']).execute());
}

/**
 * Writes one setting, creating the row when missing; every write bumps the row version for sync,
 * and the company's users pull it once the write commits.
 */
export async function upsertSetting(tx: Tx, companyId: number, key: SettingKey, value: string): Promise<Setting> {
  connectionsChanged(tx);
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
