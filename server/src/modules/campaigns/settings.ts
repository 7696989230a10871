// Campaign settings (spec/03 §3, §7, §9): one row per key of a company, the value JSON-encoded, as
// GET /campaign-settings answers them ("key plus JSON value"); POST /campaign-settings `{ settings }`
// writes the keys given. Read by the dispatcher through readCampaignSettings, defaults filled in
// (sync/src/domain/campaign.ts CAMPAIGN_SETTINGS_DEFAULTS, seconds everywhere).
import { AppError, CAMPAIGN_SETTINGS_DEFAULTS, campaignSettingsSchema, dedupeVariables, isReservedVariable, type CampaignSettings } from '@zapdesk/sync';
import type { Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';

export type CampaignSettingRow = { id: number; key: string; value: string };

export async function findCampaignSettingRows(db: Database, companyId: number): Promise<CampaignSettingRow[]> {
  return tenant(db, companyId)
    .selectFrom('campaignSettings')
    .select(['campaignSettings.id', 'campaignSettings.key', 'campaignSettings.value'])
    .orderBy('campaignSettings.key')
    .execute();
}

/** The company's settings with the defaults for every key not saved (a stored value that no longer parses is ignored). */
export async function readCampaignSettings(db: Database, companyId: number): Promise<CampaignSettings> {
  const out: Record<string, unknown> = { ...CAMPAIGN_SETTINGS_DEFAULTS };
  const shape = campaignSettingsSchema.shape;
  for (const row of await findCampaignSettingRows(db, companyId)) {
    const field = shape[row.key as keyof typeof shape];
    if (!field) continue;
    let value: unknown;
    try {
      value = JSON.parse(row.value);
    } catch {
      continue;
    }
    // A custom variable named as a built-in one (saved before that was refused) is left out alone.
    if (row.key === 'variables' && Array.isArray(value)) value = value.filter((v: { key?: unknown }) => typeof v?.key !== 'string' || !isReservedVariable(v.key));
    const parsed = field.safeParse(value);
    if (parsed.success) out[row.key] = parsed.data;
  }
  return out as CampaignSettings;
}

export async function saveCampaignSettings(tx: Tx, companyId: number, settings: Partial<CampaignSettings>): Promise<CampaignSettingRow[]> {
  const t = tenant(tx.db, companyId);
  // The do-not-contact tag is one of the company's own, as a campaign's tag list is.
  const tagId = settings.doNotContactTagId;
  if (typeof tagId === 'number' && !(await t.selectFrom('tags').select('tags.id').where('tags.id', '=', tagId).executeTakeFirst())) {
    throw new AppError('ERR_VALIDATION', 'doNotContactTagId: not found', { issues: [{ path: 'doNotContactTagId', message: 'not found' }] });
  }
  for (const [key, raw] of Object.entries(settings)) {
    if (raw === undefined) continue;
    const value = JSON.stringify(key === 'variables' ? dedupeVariables(raw as CampaignSettings['variables']) : raw);
    // Insert first, yielding to a row another save wrote (unique company + key), then update.
    const inserted = await t.insertInto('campaignSettings', { key, value }).onConflict((oc) => oc.doNothing()).returning('campaignSettings.id').executeTakeFirst();
    if (!inserted) await t.updateTable('campaignSettings').set({ value, ...bumpVersion() }).where('campaignSettings.key', '=', key).execute();
  }
  tx.effects.poke(companyId);
  return findCampaignSettingRows(tx.db, companyId);
}

/** A deleted tag no longer keeps anyone from campaigns: the setting that named it goes back to none. */
export async function forgetDoNotContactTag(tx: Tx, companyId: number, tagId: number): Promise<void> {
  const res = await tenant(tx.db, companyId)
    .updateTable('campaignSettings')
    .set({ value: 'null', ...bumpVersion() })
    .where('campaignSettings.key', '=', 'doNotContactTagId')
    .where('campaignSettings.value', '=', JSON.stringify(tagId))
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) > 0) tx.effects.poke(companyId);
}
