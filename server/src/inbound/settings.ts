// The company settings the pipeline and the ticket transitions behave by, with the defaults of a
// new company for keys a company has not stored.
import { DEFAULT_SETTINGS, type SettingKey } from '@zapdesk/sync';
import type { Database } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';

export type CompanySettings = Record<SettingKey, string>;

export async function readSettings(db: Database, companyId: number): Promise<CompanySettings> {
  const rows = await tenant(db, companyId).selectFrom('settings').select(['settings.key', 'settings.value']).execute();
  const out: CompanySettings = { ...DEFAULT_SETTINGS };
  for (const r of rows) if (r.key in out) out[r.key as SettingKey] = r.value;
  return out;
}
