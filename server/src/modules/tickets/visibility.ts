// Who sees which ticket (spec/02 §6; the rules chosen are in README.md, "Visibility").
import { AppError, can, isCompanyAdmin } from '@zapdesk/sync';
import { type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { prepare } from '../../db/prepared.ts';

export type Viewer = {
  companyId: number;
  userId: number;
  /** isCompanyAdmin(actor): sees every ticket of the company. */
  isCompanyAdmin: boolean;
  /** May use the show-all switch (admin, or permission tickets-manager:showall). */
  canShowAll: boolean;
  queueIds: number[];
  showNoQueue: boolean;
  /** allTicket enabled: also sees every unassigned pending ticket, whatever its queue. */
  allTicket: boolean;
};

export async function loadViewer(db: Database, actor: Actor): Promise<Viewer> {
  const params = { companyId: actor.companyId, userId: actor.userId };
  const user = (await selectViewerFlags(db, params)).rows[0];
  if (!user) throw new AppError('ERR_SESSION_EXPIRED');
  const queues = (await selectViewerQueues(db, params)).rows;
  return viewerOf(actor, user, queues.map((q) => q.queueId));
}

// Every ticket list and pull reads its viewer: compiled once (../../db/prepared.ts).
const selectViewerFlags = prepare((db, p: { companyId: number; userId: number }) =>
  db.selectFrom('users').select(['users.showNoQueue', 'users.allTicket']).where('users.companyId', '=', p.companyId).where('users.id', '=', p.userId),
);
const selectViewerQueues = prepare((db, p: { companyId: number; userId: number }) =>
  db.selectFrom('userQueues').select('userQueues.queueId').where('userQueues.companyId', '=', p.companyId).where('userQueues.userId', '=', p.userId),
);

/** What the visibility rules need of a user row. */
export type ViewerFlags = { showNoQueue: number; allTicket: string };

/** The viewer of an actor, from their user row's flags and their queues. */
export function viewerOf(actor: Actor, user: ViewerFlags, queueIds: number[]): Viewer {
  return {
    companyId: actor.companyId,
    userId: actor.userId,
    isCompanyAdmin: isCompanyAdmin(actor),
    canShowAll: can(actor, 'tickets-manager:showall'),
    queueIds,
    showNoQueue: user.showNoQueue === 1,
    allTicket: user.allTicket === 'enabled',
  };
}

type TicketLike = { userId: number | null; queueId: number | null; status: string };

/** The attendant's scope; admins pass everything (the list narrows admins by showAll separately). */
export function canSeeTicket(viewer: Viewer, ticket: TicketLike): boolean {
  if (viewer.isCompanyAdmin) return true;
  return inAttendantScope(viewer, ticket);
}

export function inAttendantScope(viewer: Viewer, ticket: TicketLike): boolean {
  if (ticket.userId === viewer.userId) return true;
  // Open tickets held by a colleague are theirs: only admins peek at them.
  const unheldOrClosed = ticket.userId === null || ticket.status === 'closed';
  if (ticket.queueId !== null && viewer.queueIds.includes(ticket.queueId) && unheldOrClosed) return true;
  if (ticket.queueId === null && viewer.showNoQueue && unheldOrClosed) return true;
  return viewer.allTicket && ticket.status === 'pending' && ticket.userId === null;
}

/** The same scope as a SQL condition on `tickets`. */
export function attendantScope(viewer: Viewer) {
  return (eb: ExpressionBuilder<DB, 'tickets'>): Expression<SqlBool> => {
    const unheldOrClosed = eb.or([eb('tickets.userId', 'is', null), eb('tickets.status', '=', 'closed')]);
    const branches: Expression<SqlBool>[] = [eb('tickets.userId', '=', viewer.userId)];
    if (viewer.queueIds.length > 0) branches.push(eb.and([eb('tickets.queueId', 'in', viewer.queueIds), unheldOrClosed]));
    if (viewer.showNoQueue) branches.push(eb.and([eb('tickets.queueId', 'is', null), unheldOrClosed]));
    if (viewer.allTicket) branches.push(eb.and([eb('tickets.status', '=', 'pending'), eb('tickets.userId', 'is', null)]));
    return branches.length === 1 ? branches[0]! : eb.or(branches);
  };
}

/** Throws 403 ERR_NO_PERMISSION when the viewer may not see the ticket. */
export function assertCanSee(viewer: Viewer, ticket: TicketLike): void {
  if (!canSeeTicket(viewer, ticket)) throw new AppError('ERR_NO_PERMISSION', 'This ticket is outside your queues.');
}
