// The one settings mapper (sync/src/domain/setting.ts): GET /settings, each setting/<key> of the sync
// and a company's `settings` (GET /companies/{id}, the session's company) list the same pairs.
import { DEFAULT_SETTINGS, SETTING_KEYS, type Setting } from '@zapdesk/sync';

export type SettingRow = { key: string; value: string };

export function toSettingDto(row: SettingRow): Setting {
  return { key: row.key, value: row.value };
}

/**
 * The stored settings completed with the default of every known key the company has no row for (a
 * company created before a key existed still shows, and behaves by, that key's default), sorted by
 * key in code-point order (the dialects' collations disagree on where "CheckMsgIsGroup" goes).
 */
export function toSettingDtos(rows: SettingRow[]): Setting[] {
  const byKey = new Map<string, string>(SETTING_KEYS.map((key) => [key, DEFAULT_SETTINGS[key]]));
  for (const row of rows) byKey.set(row.key, row.value);
  return [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, value]) => toSettingDto({ key, value }));
}
