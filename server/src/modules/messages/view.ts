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
  tables: [...ACTIVE_TICKET_TABLES, 'messages'],
  audience: activeTicketsAudience,
  async listVersions(ctx) {
    const ticketIds = (await findActiveVisibleTickets(ctx)).map((r) => r.id);
    const out: { id: RowId; version: number }[] = [];
    for (const part of chunk(ticketIds)) {
      // The newest 50 of each ticket: a window over the (company, ticket, created_at) index.
      const rows = await sql<{ id: number; ticket_id: number; version: number }>`
        select id, ticket_id, version from (
          select id, ticket_id, version, row_number() over (partition by ticket_id order by created_at desc, id desc) as n
          from messages where company_id = ${ctx.actor.companyId} and ticket_id in (${sql.join(part)})
        ) ranked where n <= ${SYNCED_MESSAGES_PER_TICKET}`.execute(ctx.db.withoutPlugins());
      for (const r of rows.rows) out.push({ id: `${r.ticket_id}/${r.id}`, version: r.version });
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
