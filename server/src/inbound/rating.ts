// The rating flow (setting userRating): closing a ticket asks the contact for 1-3; the reply is
// stored as a user rating and on the ticket's tracking. Rules in README.md, "Rating".
import { tenant } from '../db/tenant.ts';
import type { Tx } from '../db/write.ts';
import type { TicketRow } from '../modules/tickets/dto.ts';
import { trackTicket } from '../modules/ticket-tracking/service.ts';
import { queueAutoReply } from './reply.ts';
import { texts } from './texts.ts';

/** Queues the rating question of a just-closed ticket; clears awaitingRating when it cannot be queued. */
export async function requestRating(tx: Tx, ticket: TicketRow, lang: string | null): Promise<void> {
  const t = tenant(tx.db, ticket.companyId);
  const connection = ticket.whatsappId
    ? await t.selectFrom('whatsapps').select('whatsapps.ratingMessage').where('whatsapps.id', '=', ticket.whatsappId).executeTakeFirst()
    : undefined;
  const words = texts(lang);
  const question = connection?.ratingMessage?.trim() || words.rating;
  const queued = await queueAutoReply(tx, ticket, `${question}\n\n${words.ratingOptions}`);
  if (!queued) {
    await t.updateTable('tickets').set((eb) => ({ awaitingRating: 0, version: eb('tickets.version', '+', 1) })).where('tickets.id', '=', ticket.id).execute();
  }
}

/** The rating a reply gives: "1", "2" or "3" (surrounding spaces and a trailing dot allowed). */
export function parseRating(body: string): number | undefined {
  const m = /^\s*([1-3])\s*\.?\s*$/.exec(body);
  return m ? Number(m[1]) : undefined;
}

/**
 * Stores a rating for a closed ticket awaiting one. The claim (awaitingRating 1 → 0) is atomic, so
 * a redelivered or concurrent reply rates once. Returns false when another reply got there first.
 */
export async function captureRating(tx: Tx, ticket: TicketRow, rate: number): Promise<boolean> {
  const now = new Date().toISOString();
  const t = tenant(tx.db, ticket.companyId);
  const res = await t
    .updateTable('tickets')
    .set((eb) => ({ awaitingRating: 0, updatedAt: now, version: eb('tickets.version', '+', 1) }))
    .where('tickets.id', '=', ticket.id)
    .where('tickets.awaitingRating', '=', 1)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) return false;
  await t.insertInto('userRatings', { ticketId: ticket.id, userId: ticket.userId, rate }).execute();
  await trackTicket(tx.db, ticket.companyId, ticket, { rating: rate, ratedAt: now });
  const connection = ticket.whatsappId
    ? await t.selectFrom('whatsapps').select('whatsapps.complationMessage').where('whatsapps.id', '=', ticket.whatsappId).executeTakeFirst()
    : undefined;
  await queueAutoReply(tx, ticket, connection?.complationMessage?.trim() || texts(null).ratingThanks);
  tx.effects.poke(ticket.companyId);
  return true;
}

/** Ends a wait for a rating without one (the contact wrote something else). */
export async function dropRatingWait(tx: Tx, ticket: TicketRow): Promise<void> {
  const res = await tenant(tx.db, ticket.companyId)
    .updateTable('tickets')
    .set((eb) => ({ awaitingRating: 0, updatedAt: new Date().toISOString(), version: eb('tickets.version', '+', 1) }))
    .where('tickets.id', '=', ticket.id)
    .where('tickets.awaitingRating', '=', 1)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) > 0) tx.effects.poke(ticket.companyId);
}
