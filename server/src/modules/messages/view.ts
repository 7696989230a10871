// message/<ticketId>/<id>: the most recent 50 messages of each active ticket the user may see
// (tickets/view.ts decides which), each as GET /messages/{ticketId} answers it (dto.ts). Older
// messages stay on paginated REST.
import type { Message } from '@zapdesk/sync';
import { sql } from 'kysely';
import { chunk, defineView, type RowId } from '../../sync/views/types.ts';
import { ACTIVE_TICKET_TABLES, activeTicketsAudience, findActiveVisibleTickets } from '../tickets/view.ts';
import { toMessageDtos } from './dto.ts';

/** Messages per ticket in the client view. */
export const SYNCED_MESSAGES_PER_TICKET = 50;

export const ticketMessagesView = defineView({
  name: 'ticket-message',
  prefix: 'message',
  // Besides visibility: the message rows, and the contacts whose names the values show.
  tables: [...ACTIVE_TICKET_TABLES, 'messages', 'contacts'],
  audience: activeTicketsAudience,
  async listVersions(ctx) {
    const ticketIds = (await findActiveVisibleTickets(ctx)).map((r) => r.id);
    const out: { id: RowId; version: string }[] = [];
    for (const part of chunk(ticketIds)) {
      // The newest 50 of each ticket: a window over the (company, ticket, created_at) index. The
      // value shows the sender contact's name and the quoted message: their versions are folded in.
      const rows = await sql<{ id: number; ticket_id: number; version: number; contact_version: number | null; quoted_version: number | null }>`
        select ranked.id, ranked.ticket_id, ranked.version, c.version as contact_version, q.version as quoted_version from (
          select id, ticket_id, version, contact_id, quoted_msg_id, row_number() over (partition by ticket_id order by created_at desc, id desc) as n
          from messages where company_id = ${ctx.actor.companyId} and ticket_id in (${sql.join(part)})
        ) ranked
        left join contacts c on c.id = ranked.contact_id
        left join messages q on q.id = ranked.quoted_msg_id
        where ranked.n <= ${SYNCED_MESSAGES_PER_TICKET}`.execute(ctx.db.withoutPlugins());
      for (const r of rows.rows) out.push({ id: `${r.ticket_id}/${r.id}`, version: `${r.version}:${r.contact_version ?? 0}.${r.quoted_version ?? 0}` });
    }
    return out;
  },
  async getValues(ctx, ids) {
    const out: { id: RowId; value: Message }[] = [];
    const messageIds = (ids as string[]).map((id) => Number(id.split('/')[1]));
    for (const part of chunk(messageIds)) {
      const rows = await ctx.t.selectFrom('messages').selectAll('messages').where('messages.id', 'in', part).execute();
      for (const dto of await toMessageDtos(ctx.db, ctx.actor.companyId, rows)) out.push({ id: `${dto.ticketId}/${dto.id}`, value: dto });
    }
    return out;
  },
});
