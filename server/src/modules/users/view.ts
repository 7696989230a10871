// user/<id>: every user of the actor's company, as the REST answers send them (the one mapper,
// dto.ts): never the password hash, the language on the actor's own row only. The queues a user works
// in (id, name, colour, in queue order) are part of the value, so their ids and versions are part of
// the row's version: `7:1-2.4-1` is version 7 in queue 1 (at its version 2) and queue 4 (at 1), and a
// membership change, a renamed or reordered queue, or a queue deleted under it reaches the clients.
import type { User } from '@zapdesk/sync';
import type { Tenant } from '../../db/tenant.ts';
import { chunk, defineView, type RowId } from '../../sync/views/types.ts';
import { findUserQueues, toUserDto } from './dto.ts';

/** `1-2.4-1` per user: the ids and versions of their queues, in the order the value lists them. */
async function findQueueVersions(t: Tenant): Promise<Map<number, string>> {
  const rows = await t
    .selectFrom('userQueues')
    .innerJoin('queues', 'queues.id', 'userQueues.queueId')
    .select(['userQueues.userId', 'queues.id', 'queues.version'])
    .orderBy('queues.orderQueue')
    .orderBy('queues.id')
    .execute();
  const out = new Map<number, string>();
  for (const r of rows) {
    const seen = out.get(r.userId);
    out.set(r.userId, seen === undefined ? `${r.id}-${r.version}` : `${seen}.${r.id}-${r.version}`);
  }
  return out;
}

export const usersView = defineView({
  name: 'user',
  prefix: 'user',
  tables: ['users', 'user_queues', 'queues'],
  audience: () => '',
  // The user's own row carries their language.
  valueScope: (actor) => `user:${actor.userId}`,
  async listVersions({ t }) {
    const [users, queues] = await Promise.all([t.selectFrom('users').select(['users.id', 'users.version']).execute(), findQueueVersions(t)]);
    return users.map((u) => {
      const q = queues.get(u.id);
      return { id: u.id, version: q ? `${u.version}:${q}` : u.version };
    });
  },
  async getValues({ db, t, actor }, ids) {
    const out: { id: RowId; value: User }[] = [];
    for (const part of chunk(ids as number[])) {
      const [rows, queues] = await Promise.all([
        t.selectFrom('users').selectAll('users').where('users.id', 'in', part).execute(),
        findUserQueues(db, actor.companyId, part),
      ]);
      for (const r of rows) out.push({ id: r.id, value: toUserDto(r, queues.get(r.id) ?? [], actor.userId) });
    }
    return out;
  },
});
