// setting/<key>: the company's settings, keyed by setting key (keys are unique per company).
import type { SyncedSetting } from '@zapdesk/sync/keys';
import { chunk, defineView, type RowId } from './types.ts';

export const settingsView = defineView({
  name: 'setting',
  prefix: 'setting',
  tables: ['settings'],
  audience: () => '',
  async listVersions({ t }) {
    const rows = await t.selectFrom('settings').select(['settings.key', 'settings.version']).execute();
    return rows.map((r) => ({ id: r.key, version: r.version }));
  },
  async getValues({ t }, ids) {
    const out: { id: RowId; value: SyncedSetting }[] = [];
    for (const part of chunk(ids as string[])) {
      const rows = await t.selectFrom('settings').select(['settings.key', 'settings.value']).where('settings.key', 'in', part).execute();
      for (const r of rows) out.push({ id: r.key, value: { key: r.key, value: r.value } });
    }
    return out;
  },
});
