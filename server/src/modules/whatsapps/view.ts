// connection/<id>: the company's WhatsApp connections with live status and QR. The value is
// GET /whatsapp/{id}'s answer for the row (one mapper, dto.ts, with the session details). The
// messages-API token goes to admins only, so the role is part of the audience and of the version:
// a user who becomes admin gets every connection again, now with its token. The value shows each
// linked queue's name, colour, greeting and order, so the version folds in the queues' versions.
import type { Connection } from '@zapdesk/sync';
import { chunk, defineView, type RowId } from '../../sync/views/types.ts';
import { findConnectionDtos, mayReadToken } from './dto.ts';

export const connectionsView = defineView({
  name: 'connection',
  prefix: 'connection',
  tables: ['whatsapps', 'whatsapp_queues', 'queues'],
  audience: (actor) => (mayReadToken(actor) ? 'admin' : 'member'),
  async listVersions({ t, actor }) {
    const [rows, links] = await Promise.all([
      t.selectFrom('whatsapps').select(['whatsapps.id', 'whatsapps.version']).execute(),
      t.selectFrom('whatsappQueues')
        .innerJoin('queues', 'queues.id', 'whatsappQueues.queueId')
        .select(['whatsappQueues.whatsappId', 'queues.id', 'queues.version'])
        .orderBy('queues.id')
        .execute(),
    ]);
    const queues = new Map<number, string[]>();
    for (const l of links) queues.set(l.whatsappId, [...(queues.get(l.whatsappId) ?? []), `${l.id}-${l.version}`]);
    const suffix = mayReadToken(actor) ? 't' : '';
    return rows.map((r) => ({ id: r.id, version: `${r.version}:${queues.get(r.id)?.join('.') ?? ''}${suffix}` }));
  },
  async getValues({ db, t, actor }, ids) {
    const out: { id: RowId; value: Connection }[] = [];
    for (const part of chunk(ids as number[])) {
      for (const dto of await findConnectionDtos(db, t.companyId, { actor, withSession: true }, part)) out.push({ id: dto.id, value: dto });
    }
    return out;
  },
});
