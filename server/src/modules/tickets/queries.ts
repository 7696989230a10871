// GET /tickets: every filter of spec/02 §7 over the viewer's scope, newest activity first.
import { TICKETS_PAGE_SIZE, type TicketListQuery, type TicketPage } from '@zapdesk/sync';
import type { Database, Dialect } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import { toTicketDtos } from './dto.ts';
import { findMatchingTickets, searchTerms } from './search.ts';
import { attendantScope, type Viewer } from './visibility.ts';

const dayRange = (day: string) => {
  const start = new Date(`${day}T00:00:00.000Z`);
  return [start.toISOString(), new Date(start.getTime() + 86_400_000).toISOString()] as const;
};

export async function findTicketsPage(db: Database, dialect: Dialect, viewer: Viewer, q: TicketListQuery): Promise<TicketPage> {
  let query = tenant(db, viewer.companyId).selectFrom('tickets').selectAll('tickets');
  const showAll = q.showAll === true && viewer.canShowAll;
  if (!showAll) query = query.where(attendantScope(viewer));
  if (q.status) query = query.where('tickets.status', '=', q.status);
  if (q.queueIds?.length) {
    // Tickets without a queue stay in the list when the viewer may see them (they await a queue).
    const ids = q.queueIds;
    const withNoQueue = viewer.isCompanyAdmin || viewer.showNoQueue;
    query = query.where((eb) => (withNoQueue ? eb.or([eb('tickets.queueId', 'in', ids), eb('tickets.queueId', 'is', null)]) : eb('tickets.queueId', 'in', ids)));
  }
  if (q.users?.length) query = query.where('tickets.userId', 'in', q.users);
  if (q.tags?.length) {
    // Every chosen tag: a ticket must carry them all.
    for (const tagId of new Set(q.tags)) {
      query = query.where('tickets.id', 'in', (eb) =>
        eb.selectFrom('ticketTags').select('ticketTags.ticketId').where('ticketTags.companyId', '=', viewer.companyId).where('ticketTags.tagId', '=', tagId),
      );
    }
  }
  if (q.date) {
    const [from, to] = dayRange(q.date);
    query = query.where('tickets.createdAt', '>=', from).where('tickets.createdAt', '<', to);
  }
  if (q.updatedAt) {
    const [from, to] = dayRange(q.updatedAt);
    query = query.where('tickets.updatedAt', '>=', from).where('tickets.updatedAt', '<', to);
  }
  if (q.withUnreadMessages) {
    // Notifications: own tickets or unassigned ones (spec/02 §6).
    query = query
      .where('tickets.unreadMessages', '>', 0)
      .where((eb) => eb.or([eb('tickets.userId', '=', viewer.userId), eb('tickets.userId', 'is', null)]));
  }
  if (q.isGroup !== undefined) query = query.where('tickets.isGroup', '=', q.isGroup ? 1 : 0);
  const window = { offset: (q.pageNumber - 1) * TICKETS_PAGE_SIZE, limit: TICKETS_PAGE_SIZE + 1 };
  const terms = searchTerms(q.searchParam);
  const rows =
    terms.length > 0
      ? await findMatchingTickets(db, dialect, viewer.companyId, query, terms, window)
      : await query.orderBy('tickets.updatedAt', 'desc').orderBy('tickets.id', 'desc').limit(window.limit).offset(window.offset).execute();
  const hasMore = rows.length > TICKETS_PAGE_SIZE;
  return { tickets: await toTicketDtos(db, viewer.companyId, rows.slice(0, TICKETS_PAGE_SIZE)), hasMore };
}
