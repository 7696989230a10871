// queue/<id>: every queue of the company (attendants transfer tickets between all of them). The
// value is GET /queue's answer for the row: one mapper (dto.ts) for both transports.
import type { Queue } from '@zapdesk/sync';
import { chunk, defineView, type RowId } from '../../sync/views/types.ts';
import { toQueueDto } from './dto.ts';

export const queuesView = defineView({
  name: 'queue',
  prefix: 'queue',
  tables: ['queues'],
  audience: () => '',
  listVersions: ({ t }) => t.selectFrom('queues').select(['queues.id', 'queues.version']).execute(),
  async getValues({ t }, ids) {
    const out: { id: RowId; value: Queue }[] = [];
    for (const part of chunk(ids as number[])) {
      const rows = await t.selectFrom('queues').selectAll('queues').where('queues.id', 'in', part).execute();
      for (const r of rows) out.push({ id: r.id, value: toQueueDto(r) });
    }
    return out;
  },
});
