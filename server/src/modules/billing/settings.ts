// The platform's receiving account for Pix (the super-admin's settings): the key, the merchant name
// and city the BR Code carries. Platform-wide rows (platform_settings), not a tenant's.
import type { BillingSettings } from '@zapdesk/sync';
import { nowIso, type Database } from '../../db/database.ts';
import type { Tx } from '../../db/write.ts';

const KEYS = { pixKey: 'billing.pixKey', merchantName: 'billing.merchantName', merchantCity: 'billing.merchantCity' } as const;

/** The settings, or null while any of the three is missing (checkout then refuses). */
export async function findBillingSettings(db: Database): Promise<BillingSettings | null> {
  const rows = await db.selectFrom('platformSettings').select(['key', 'value']).where('key', 'in', Object.values(KEYS)).execute();
  const byKey = new Map(rows.map((r) => [r.key, r.value]));
  const pixKey = byKey.get(KEYS.pixKey);
  const merchantName = byKey.get(KEYS.merchantName);
  const merchantCity = byKey.get(KEYS.merchantCity);
  return pixKey && merchantName && merchantCity ? { pixKey, merchantName, merchantCity } : null;
}

export async function saveBillingSettings(tx: Tx, input: BillingSettings): Promise<BillingSettings> {
  const t = nowIso();
  for (const [field, key] of Object.entries(KEYS) as [keyof BillingSettings, string][]) {
    await tx.db
      .insertInto('platformSettings')
      .values({ key, value: input[field], createdAt: t, updatedAt: t })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: input[field], updatedAt: t }))
      .execute();
  }
  return input;
}
