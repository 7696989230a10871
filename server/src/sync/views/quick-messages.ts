// quickMessage/<id>: the company's shared (geral) quick messages plus the actor's own. Two views
// with one prefix: the shared list is the same for everyone (cached once per company), the own
// list is per user. A message that moves between them is a del and a put of one key; the pull
// writes dels before puts, so it survives the move.
import type { SyncedQuickMessage } from '@zapdesk/sync/keys';
import type { Tenant } from '../../db/tenant.ts';
import { chunk, defineView, type RowId } from './types.ts';

async function findQuickMessages(t: Tenant, ids: RowId[]) {
  const out: { id: RowId; value: SyncedQuickMessage }[] = [];
  for (const part of chunk(ids as number[])) {
    const rows = await t.selectFrom('quickMessages').selectAll().where('quickMessages.id', 'in', part).execute();
    for (const r of rows) {
      out.push({
        id: r.id,
        value: {
          id: r.id,
          shortcode: r.shortcode,
          message: r.message,
          mediaPath: r.mediaPath,
          mediaName: r.mediaName,
          geral: r.geral === 1,
          status: r.status === 1,
          userId: r.userId,
        },
      });
    }
  }
  return out;
}

export const sharedQuickMessagesView = defineView({
  name: 'quickMessage.shared',
  prefix: 'quickMessage',
  tables: ['quick_messages'],
  audience: () => '',
  listVersions: ({ t }) => t.selectFrom('quickMessages').select(['quickMessages.id', 'quickMessages.version']).where('quickMessages.geral', '=', 1).execute(),
  getValues: ({ t }, ids) => findQuickMessages(t, ids),
});

export const ownQuickMessagesView = defineView({
  name: 'quickMessage.own',
  prefix: 'quickMessage',
  tables: ['quick_messages'],
  audience: (actor) => `user:${actor.userId}`,
  listVersions: ({ t, actor }) =>
    t.selectFrom('quickMessages')
      .select(['quickMessages.id', 'quickMessages.version'])
      .where('quickMessages.geral', '=', 0)
      .where('quickMessages.userId', '=', actor.userId)
      .execute(),
  getValues: ({ t }, ids) => findQuickMessages(t, ids),
});
