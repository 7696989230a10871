// setting/<key>: the company's settings as GET /settings lists them (the one mapper, dto.ts): a known
// key the company has no row for is there too, with its default, at version 0; when a row is written
// later its own version takes over and the clients get the stored value.
import { SETTING_KEYS, type Setting } from '@zapdesk/sync';
import { defineView, type RowId } from '../../sync/views/types.ts';
import { toSettingDtos } from './dto.ts';

export const settingsView = defineView({
  name: 'setting',
  prefix: 'setting',
  tables: ['settings'],
  audience: () => '',
  async listVersions({ t }) {
    const rows = await t.selectFrom('settings').select(['settings.key', 'settings.version']).execute();
    const stored = new Set(rows.map((r) => r.key));
    const defaults = SETTING_KEYS.filter((key) => !stored.has(key)).map((key) => ({ id: key, version: 0 }));
    return [...rows.map((r) => ({ id: r.key, version: r.version })), ...defaults];
  },
  // A company has a dozen settings: all are read and mapped, and the asked ones kept.
  async getValues({ t }, ids) {
    const wanted = new Set(ids.map(String));
    const rows = await t.selectFrom('settings').select(['settings.key', 'settings.value']).execute();
    return toSettingDtos(rows)
      .filter((s) => wanted.has(s.key))
      .map((value): { id: RowId; value: Setting } => ({ id: value.key, value }));
  },
});
