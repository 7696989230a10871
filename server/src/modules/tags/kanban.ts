// The kanban board (spec/02 §2 screen 17, §6): the tickets a user may see with their tags, and the
// lanes built from them, so the web and the CLI draw the same board without re-deriving the rule.
import type { KanbanQuery, TicketTagRef } from '@zapdesk/sync';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import { findAllTags, findTicketTags } from './queries.ts';
import { findTicketScope, ticketInScope } from './ticket-access.ts';

/** A board holds the most recently active tickets; older ones are reached through the ticket list. */
export const KANBAN_MAX_TICKETS = 1000;

export type KanbanTicket = {
  id: number;
  uuid: string;
  status: string;
  lastMessage: string;
  unreadMessages: number;
  updatedAt: string;
  queueId: number | null;
  userId: number | null;
  whatsappId: number | null;
  contactId: number;
  contact: { id: number; name: string; number: string; profilePicUrl: string | null };
  tags: TicketTagRef[];
};

/** lane0 holds open tickets without tags; then one lane per kanban tag, coloured by it. */
export type KanbanLane = { id: string; tagId: number | null; title: string | null; color: string | null; ticketIds: number[] };

/** GET /ticket/kanban: open and pending tickets in the actor's scope (showAll widens it for admins only). */
export async function findKanbanBoard(db: Database, actor: Actor, query: KanbanQuery): Promise<{ tickets: KanbanTicket[]; lanes: KanbanLane[] }> {
  const scope = await findTicketScope(db, actor, query.showAll);
  const rows = await tenant(db, actor.companyId)
    .selectFrom('tickets')
    .innerJoin('contacts', 'contacts.id', 'tickets.contactId')
    .select([
      'tickets.id',
      'tickets.uuid',
      'tickets.status',
      'tickets.lastMessage',
      'tickets.unreadMessages',
      'tickets.updatedAt',
      'tickets.queueId',
      'tickets.userId',
      'tickets.whatsappId',
      'tickets.contactId',
      'contacts.name as contactName',
      'contacts.number as contactNumber',
      'contacts.profilePicUrl as contactPicUrl',
    ])
    .where('tickets.status', 'in', ['open', 'pending'])
    .where(ticketInScope(scope))
    .$if(query.queueIds.length > 0, (q) => q.where('tickets.queueId', 'in', query.queueIds))
    .orderBy('tickets.updatedAt', 'desc')
    .orderBy('tickets.id', 'desc')
    .limit(KANBAN_MAX_TICKETS)
    .execute();
  const tagsByTicket = await findTicketTags(db, actor.companyId, rows.map((r) => r.id));
  const tickets: KanbanTicket[] = rows.map(({ contactName, contactNumber, contactPicUrl, ...r }) => ({
    ...r,
    contact: { id: r.contactId, name: contactName, number: contactNumber, profilePicUrl: contactPicUrl },
    tags: tagsByTicket.get(r.id) ?? [],
  }));
  const lanes: KanbanLane[] = [
    { id: 'lane0', tagId: null, title: null, color: null, ticketIds: tickets.filter((t) => t.status === 'open' && t.tags.length === 0).map((t) => t.id) },
  ];
  for (const tag of await findAllTags(db, actor.companyId, true)) {
    lanes.push({
      id: `tag-${tag.id}`,
      tagId: tag.id,
      title: tag.name,
      color: tag.color,
      ticketIds: tickets.filter((t) => t.tags.some((x) => x.id === tag.id)).map((t) => t.id),
    });
  }
  return { tickets, lanes };
}
