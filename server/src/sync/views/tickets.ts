// ticket/<id>, contact/<id>, message/<ticketId>/<id>: the active (open and pending) tickets the
// actor may see (spec/02 §6, the same rules as REST: modules/tickets/visibility.ts), each with its
// contact and its most recent 50 messages. Closed tickets and older messages stay on paginated REST.
import { isCompanyAdmin, type Contact, type Message, type Ticket } from '@zapdesk/sync';
import { sql } from 'kysely';
import type { Actor } from '../../context.ts';
import { findExtraInfo, toContactDto } from '../../modules/contacts/queries.ts';
import { toMessageDtos } from '../../modules/messages/dto.ts';
import { toTicketDtos } from '../../modules/tickets/dto.ts';
import { attendantScope, loadViewer } from '../../modules/tickets/visibility.ts';
import { chunk, defineView, type RowId, type ViewContext } from './types.ts';

/** Messages per ticket in the client view. */
export const SYNCED_MESSAGES_PER_TICKET = 50;

const TICKET_TABLES = ['tickets', 'ticket_tags', 'user_queues', 'users'];

// Admins share one listing; an attendant's depends on their id, queues and flags.
const audience = (actor: Actor) => (isCompanyAdmin(actor) ? 'admin' : `user:${actor.userId}`);

async function visibleTickets(ctx: ViewContext) {
  const viewer = await loadViewer(ctx.db, ctx.actor);
  let q = ctx.t.selectFrom('tickets').select(['tickets.id', 'tickets.version', 'tickets.contactId']).where('tickets.status', 'in', ['open', 'pending']);
  if (!viewer.isCompanyAdmin) q = q.where(attendantScope(viewer));
  return q.execute();
}

export const ticketsView = defineView({
  name: 'ticket',
  prefix: 'ticket',
  tables: TICKET_TABLES,
  audience,
  async listVersions(ctx) {
    const tickets = await visibleTickets(ctx);
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

export const ticketContactsView = defineView({
  name: 'ticket-contact',
  prefix: 'contact',
  tables: [...TICKET_TABLES, 'contacts', 'contact_custom_fields'],
  audience,
  async listVersions(ctx) {
    const contactIds = [...new Set((await visibleTickets(ctx)).map((r) => r.contactId))];
    const out: { id: RowId; version: number }[] = [];
    for (const part of chunk(contactIds)) {
      out.push(...(await ctx.t.selectFrom('contacts').select(['contacts.id', 'contacts.version']).where('contacts.id', 'in', part).execute()));
    }
    return out;
  },
  async getValues(ctx, ids) {
    const out: { id: RowId; value: Contact }[] = [];
    for (const part of chunk(ids as number[])) {
      const rows = await ctx.t.selectFrom('contacts').selectAll('contacts').where('contacts.id', 'in', part).execute();
      for (const r of rows) out.push({ id: r.id, value: toContactDto(r, await findExtraInfo(ctx.db, ctx.actor.companyId, r.id)) });
    }
    return out;
  },
});

export const ticketMessagesView = defineView({
  name: 'ticket-message',
  prefix: 'message',
  tables: [...TICKET_TABLES, 'messages'],
  audience,
  async listVersions(ctx) {
    const ticketIds = (await visibleTickets(ctx)).map((r) => r.id);
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
