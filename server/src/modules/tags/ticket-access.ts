// Tickets as tags, notes and the kanban see them: the rule of who sees which ticket is the tickets
// module's (tickets/visibility.ts); this file only adapts it to the handle of our transaction.
import { AppError } from '@zapdesk/sync';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import { chunk } from '../../sync/views/types.ts';
import { attendantScope, canSeeTicket, loadViewer, type Viewer } from '../tickets/visibility.ts';

export type TicketScope = { all: true } | { all: false; viewer: Viewer };

/** Admins see every ticket when `showAll` is on (spec/02 §6); everyone else, their attendant scope. */
export async function findTicketScope(db: Database, actor: Actor, showAll: boolean): Promise<TicketScope> {
  const viewer = await loadViewer(db, actor);
  return showAll && viewer.isCompanyAdmin ? { all: true } : { all: false, viewer };
}

/** The scope as a `where` over the tickets table. */
export function ticketInScope(scope: TicketScope) {
  return (eb: ExpressionBuilder<DB, 'tickets'>) => (scope.all ? sql<boolean>`1 = 1` : attendantScope(scope.viewer)(eb));
}

/** A ticket the actor may see: another company's (or an unknown id) is 404, one outside the view 403. */
export async function getVisibleTicket(db: Database, actor: Actor, ticketId: number) {
  const ticket = await tenant(db, actor.companyId)
    .selectFrom('tickets')
    .select(['tickets.id', 'tickets.contactId', 'tickets.status', 'tickets.userId', 'tickets.queueId'])
    .where('tickets.id', '=', ticketId)
    .executeTakeFirst();
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  if (!canSeeTicket(await loadViewer(db, actor), ticket)) throw new AppError('ERR_NO_PERMISSION', 'This ticket is outside your queues.');
  return ticket;
}

/**
 * Tags travel with a ticket in the client view, so a change of its tags is a new ticket version.
 * updatedAt is left alone: it orders the inbox, and tagging a ticket is not conversation activity.
 */
export async function bumpTicketVersions(db: Database, companyId: number, ticketIds: number[]) {
  // A statement takes so many values at most (SQLite 32,766, PostgreSQL 65,535).
  for (const ids of chunk(ticketIds, 1000)) {
    await tenant(db, companyId)
      .updateTable('tickets')
      .set((eb) => ({ version: eb('tickets.version', '+', 1) }))
      .where('tickets.id', 'in', ids)
      .execute();
  }
}
