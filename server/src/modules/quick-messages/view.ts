// quickMessage/<id>: the company's shared (geral) quick messages plus the actor's own. Two views
// with one prefix: the shared list is the same for everyone (cached once per company), the own
// list is per user. A message that moves between them is a del and a put of one key; the pull
// writes dels before puts, so it survives the move. The value is the REST answer for the row:
// one mapper (dto.ts) for both transports.
import type { QuickMessage } from '@zapdesk/sync';
import type { Tenant } from '../../db/tenant.ts';
import { chunk, defineView, type RowId } from '../../sync/views/types.ts';
import { toQuickMessageDto } from './dto.ts';

async function findQuickMessages(t: Tenant, ids: RowId[]) {
  const out: { id: RowId; value: QuickMessage }[] = [];
  for (const part of chunk(ids as number[])) {
    const rows = await t.selectFrom('quickMessages').selectAll('quickMessages').where('quickMessages.id', 'in', part).execute();
    for (const r of rows) out.push({ id: r.id, value: toQuickMessageDto(r) });
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
