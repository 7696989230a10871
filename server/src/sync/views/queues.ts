// queue/<id>: every queue of the company (attendants transfer tickets between all of them).
import type { SyncedQueue } from '@zapdesk/sync/keys';
import { chunk, defineView, parseJson, type RowId } from './types.ts';

export const queuesView = defineView({
  name: 'queue',
  prefix: 'queue',
  tables: ['queues'],
  audience: () => '',
  listVersions: ({ t }) => t.selectFrom('queues').select(['queues.id', 'queues.version']).execute(),
  async getValues({ t }, ids) {
    const out: { id: RowId; value: SyncedQueue }[] = [];
    for (const part of chunk(ids as number[])) {
      const rows = await t.selectFrom('queues').selectAll().where('queues.id', 'in', part).execute();
      for (const r of rows) {
        out.push({
          id: r.id,
          value: {
            id: r.id,
            name: r.name,
            color: r.color,
            orderQueue: r.orderQueue,
            greetingMessage: r.greetingMessage,
            outOfHoursMessage: r.outOfHoursMessage,
            ratingMessage: r.ratingMessage,
            complationMessage: r.complationMessage,
            schedules: parseJson(r.schedules),
            integrationId: r.integrationId,
            promptId: r.promptId,
          },
        });
      }
    }
    return out;
  },
});
