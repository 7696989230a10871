// tag/<id>: every tag of the company. The value is GET /tags/{id}'s answer for the row: one
// mapper (dto.ts) for both transports.
import type { Tag } from '@zapdesk/sync';
import { chunk, defineView, type RowId } from '../../sync/views/types.ts';
import { toTagDto } from './dto.ts';

export const tagsView = defineView({
  name: 'tag',
  prefix: 'tag',
  tables: ['tags'],
  audience: () => '',
  listVersions: ({ t }) => t.selectFrom('tags').select(['tags.id', 'tags.version']).execute(),
  async getValues({ t }, ids) {
    const out: { id: RowId; value: Tag }[] = [];
    for (const part of chunk(ids as number[])) {
      const rows = await t.selectFrom('tags').selectAll('tags').where('tags.id', 'in', part).execute();
      for (const r of rows) out.push({ id: r.id, value: toTagDto(r) });
    }
    return out;
  },
});
