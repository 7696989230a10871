// connection/<id>: the company's WhatsApp connections with live status and QR. The messages-API
// token goes to admins only, so the role is part of the audience and of the version: a user who
// becomes admin gets every connection again, now with its token.
import { isCompanyAdmin } from '@zapdesk/sync';
import type { SyncedConnection } from '@zapdesk/sync/keys';
import type { Actor } from '../../context.ts';
import type { Tenant } from '../../db/tenant.ts';
import { chunk, defineView, parseJson, type RowId } from './types.ts';

const seesToken = (actor: Actor) => isCompanyAdmin(actor);

async function findQueueIds(t: Tenant, whatsappIds?: number[]): Promise<Map<number, number[]>> {
  let q = t.selectFrom('whatsappQueues').select(['whatsappQueues.whatsappId', 'whatsappQueues.queueId']);
  if (whatsappIds) q = q.where('whatsappQueues.whatsappId', 'in', whatsappIds);
  const out = new Map<number, number[]>();
  for (const r of await q.orderBy('whatsappQueues.queueId').execute()) {
    const list = out.get(r.whatsappId);
    if (list) list.push(r.queueId);
    else out.set(r.whatsappId, [r.queueId]);
  }
  return out;
}

export const connectionsView = defineView({
  name: 'connection',
  prefix: 'connection',
  tables: ['whatsapps', 'whatsapp_queues'],
  audience: (actor) => (seesToken(actor) ? 'admin' : 'member'),
  async listVersions({ t, actor }) {
    const [rows, queues] = await Promise.all([t.selectFrom('whatsapps').select(['whatsapps.id', 'whatsapps.version']).execute(), findQueueIds(t)]);
    const suffix = seesToken(actor) ? 't' : '';
    return rows.map((r) => ({ id: r.id, version: `${r.version}:${queues.get(r.id)?.join('.') ?? ''}${suffix}` }));
  },
  async getValues({ t, actor }, ids) {
    const out: { id: RowId; value: SyncedConnection }[] = [];
    for (const part of chunk(ids as number[])) {
      const [rows, queues] = await Promise.all([t.selectFrom('whatsapps').selectAll().where('whatsapps.id', 'in', part).execute(), findQueueIds(t, part)]);
      for (const r of rows) {
        const value: SyncedConnection = {
          id: r.id,
          name: r.name,
          status: r.status,
          qrcode: r.qrcode,
          retries: r.retries,
          isDefault: r.isDefault === 1,
          number: r.number,
          provider: r.provider,
          updatedAt: r.updatedAt,
          greetingMessage: r.greetingMessage,
          complationMessage: r.complationMessage,
          outOfHoursMessage: r.outOfHoursMessage,
          ratingMessage: r.ratingMessage,
          expiresInactiveMessage: r.expiresInactiveMessage,
          expiresTicket: r.expiresTicket,
          timeUseBotQueues: r.timeUseBotQueues,
          maxUseBotQueues: r.maxUseBotQueues,
          timeToTransfer: r.timeToTransfer,
          transferQueueId: r.transferQueueId,
          promptId: r.promptId,
          integrationId: r.integrationId,
          schedules: parseJson(r.schedules),
          queueIds: queues.get(r.id) ?? [],
        };
        if (seesToken(actor)) value.token = r.token;
        out.push({ id: r.id, value });
      }
    }
    return out;
  },
});
