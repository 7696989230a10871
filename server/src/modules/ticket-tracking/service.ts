// Ticket tracking: one row per service cycle of a ticket (created or reopened → finished), with the
// moments the dashboard measures: queued, chatbot, started (accepted), transferred, finished, rated.
import type { Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { TicketTrackings } from '../../db/schema.ts';
import { prepare } from '../../db/prepared.ts';
import { tenant } from '../../db/tenant.ts';

type TrackingPatch = Omit<Updateable<TicketTrackings>, 'id' | 'companyId' | 'ticketId' | 'createdAt'>;

/** Starts a new cycle (ticket created or reopened). */
export async function startTracking(
  db: Database,
  companyId: number,
  ticket: { id: number; whatsappId: number | null; queueId: number | null; userId: number | null },
  patch: TrackingPatch = {},
): Promise<void> {
  await startTrackings(db, companyId, [ticket], patch);
}

/** The first cycle of many new tickets, in one insert. */
export async function startTrackings(
  db: Database,
  companyId: number,
  tickets: { id: number; whatsappId: number | null; queueId: number | null; userId: number | null }[],
  patch: TrackingPatch = {},
): Promise<void> {
  if (tickets.length === 0) return;
  await tenant(db, companyId)
    .insertInto(
      'ticketTrackings',
      tickets.map((ticket) => ({ ticketId: ticket.id, whatsappId: ticket.whatsappId, queueId: ticket.queueId, userId: ticket.userId, ...patch })),
    )
    .execute();
}

const selectLatestTracking = prepare((db, p: { companyId: number; ticketId: number }) =>
  db
    .selectFrom('ticketTrackings')
    .select('ticketTrackings.id')
    .where('ticketTrackings.companyId', '=', p.companyId)
    .where('ticketTrackings.ticketId', '=', p.ticketId)
    .orderBy('ticketTrackings.id', 'desc')
    .limit(1),
);

/** The columns a caller changes in a cycle, compiled once per set of them. */
const updateTracking = prepare((db, p: { companyId: number; id: number; changes: TrackingPatch; now: string }) =>
  db
    .updateTable('ticketTrackings')
    .set({ ...p.changes, updatedAt: p.now })
    .where('ticketTrackings.companyId', '=', p.companyId)
    .where('ticketTrackings.id', '=', p.id),
);

/** Updates the ticket's latest cycle, starting one when the ticket has none yet. */
export async function trackTicket(
  db: Database,
  companyId: number,
  ticket: { id: number; whatsappId: number | null; queueId: number | null; userId: number | null },
  patch: TrackingPatch,
): Promise<void> {
  const latest = (await selectLatestTracking(db, { companyId, ticketId: ticket.id })).rows[0];
  if (!latest) return startTracking(db, companyId, ticket, patch);
  await updateTracking(db, { companyId, id: latest.id, changes: patch, now: new Date().toISOString() });
}
