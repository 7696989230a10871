// ticket/<id>: the active (open and pending) tickets the actor may see (spec/02 §6, the same rules
// as REST: visibility.ts), each as GET /tickets/{id} answers it (dto.ts). Closed tickets stay on
// paginated REST. The contacts and messages of these tickets (contacts/view.ts, messages/view.ts)
// follow the same listing: the helpers they share are exported here.
import type { Ticket } from '@zapdesk/sync';
import type { Actor } from '../../context.ts';
import { chunk, defineView, type RowId, type ViewContext } from '../../sync/views/types.ts';
import { toTicketDtos } from './dto.ts';
import { attendantScope, loadViewer } from './visibility.ts';

/** The tables whose changes can change who sees which active ticket. */
export const ACTIVE_TICKET_TABLES = ['tickets', 'ticket_tags', 'user_queues', 'users'];

/** Admins share one listing; an attendant's depends on their id, queues and flags. */
export const activeTicketsAudience = (actor: Actor) => (actor.profile === 'admin' ? 'admin' : `user:${actor.userId}`);

/** The open and pending tickets the actor may see, as a query to select from. */
async function selectActiveVisibleTickets(ctx: ViewContext) {
  const viewer = await loadViewer(ctx.db, ctx.actor);
  const q = ctx.t.selectFrom('tickets').where('tickets.status', 'in', ['open', 'pending']);
  return viewer.isAdmin ? q : q.where(attendantScope(viewer));
}

/** The open and pending tickets the actor may see. */
export async function findActiveVisibleTickets(ctx: ViewContext) {
  return (await selectActiveVisibleTickets(ctx)).select(['tickets.id', 'tickets.version', 'tickets.contactId']).execute();
}

export const ticketsView = defineView({
  name: 'ticket',
  prefix: 'ticket',
  tables: ACTIVE_TICKET_TABLES,
  audience: activeTicketsAudience,
  async listVersions(ctx) {
    const tickets = await findActiveVisibleTickets(ctx);
    // Tags are part of the value but not of the ticket's version: fold them in.
    const tags = await ctx.t.selectFrom('ticketTags').select(['ticketTags.ticketId', 'ticketTags.tagId']).orderBy('ticketTags.tagId').execute();
    const byTicket = new Map<number, number[]>();
    for (const r of tags) byTicket.set(r.ticketId, [...(byTicket.get(r.ticketId) ?? []), r.tagId]);
    return tickets.map((r) => ({ id: r.id, version: byTicket.has(r.id) ? `${r.version}:${byTicket.get(r.id)!.join('.')}` : r.version }));
  },
  async getValues(ctx, ids) {
    const out: { id: RowId; value: Ticket }[] = [];
    for (const part of chunk(ids as number[])) {
      const rows = await ctx.t.selectFrom('tickets').selectAll('tickets').where('tickets.id', 'in', part).execute();
      for (const dto of await toTicketDtos(ctx.db, ctx.actor.companyId, rows)) out.push({ id: dto.id, value: dto });
    }
    return out;
  },
});
