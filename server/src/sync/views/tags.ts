// tag/<id>: every tag of the company.
import type { SyncedTag } from '@zapdesk/sync/keys';
import { chunk, defineView, type RowId } from './types.ts';

export const tagsView = defineView({
  name: 'tag',
  prefix: 'tag',
  tables: ['tags'],
  audience: () => '',
  listVersions: ({ t }) => t.selectFrom('tags').select(['tags.id', 'tags.version']).execute(),
  async getValues({ t }, ids) {
    const out: { id: RowId; value: SyncedTag }[] = [];
    for (const part of chunk(ids as number[])) {
      const rows = await t.selectFrom('tags').select(['tags.id', 'tags.name', 'tags.color', 'tags.kanban', 'tags.userId']).where('tags.id', 'in', part).execute();
      for (const r of rows) out.push({ id: r.id, value: { id: r.id, name: r.name, color: r.color, kanban: r.kanban === 1, userId: r.userId } });
    }
    return out;
  },
});
