// user/<id>: every user of the actor's company, public fields only (never the password hash).
// Queue membership is part of the value, so it is part of the version: `7:1.4` is version 7 in
// queues 1 and 4, and a membership change (or a queue deleted under it) reaches the clients.
import type { SyncedUser } from '@zapdesk/sync/keys';
import { chunk, defineView, type RowId } from './types.ts';
import type { Tenant } from '../../db/tenant.ts';

async function findQueueIds(t: Tenant, userIds?: number[]): Promise<Map<number, number[]>> {
  let q = t.selectFrom('userQueues').select(['userQueues.userId', 'userQueues.queueId']);
  if (userIds) q = q.where('userQueues.userId', 'in', userIds);
  const rows = await q.orderBy('userQueues.queueId').execute();
  const out = new Map<number, number[]>();
  for (const r of rows) {
    const list = out.get(r.userId);
    if (list) list.push(r.queueId);
    else out.set(r.userId, [r.queueId]);
  }
  return out;
}

export const usersView = defineView({
  name: 'user',
  prefix: 'user',
  tables: ['users', 'user_queues'],
  audience: () => '',
  // The user's own row carries their language.
  valueScope: (actor) => `user:${actor.userId}`,
  async listVersions({ t }) {
    const [users, queues] = await Promise.all([t.selectFrom('users').select(['users.id', 'users.version']).execute(), findQueueIds(t)]);
    return users.map((u) => {
      const q = queues.get(u.id);
      return { id: u.id, version: q ? `${u.version}:${q.join('.')}` : u.version };
    });
  },
  async getValues({ t, actor }, ids) {
    const out: { id: RowId; value: SyncedUser }[] = [];
    for (const part of chunk(ids as number[])) {
      const [rows, queues] = await Promise.all([
        t.selectFrom('users')
          .select(['users.id', 'users.name', 'users.email', 'users.profile', 'users.super', 'users.online', 'users.whatsappId', 'users.allTicket', 'users.showNoQueue', 'users.language'])
          .where('users.id', 'in', part)
          .execute(),
        findQueueIds(t, part),
      ]);
      for (const r of rows) {
        const value: SyncedUser = {
          id: r.id,
          name: r.name,
          email: r.email,
          profile: r.profile,
          super: r.super === 1,
          online: r.online === 1,
          whatsappId: r.whatsappId,
          allTicket: r.allTicket,
          showNoQueue: r.showNoQueue === 1,
          queueIds: queues.get(r.id) ?? [],
        };
        if (r.id === actor.userId) value.language = r.language;
        out.push({ id: r.id, value });
      }
    }
    return out;
  },
});
