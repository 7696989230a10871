// The ticket a notification goes through (the external API, a scheduled message): the contact's
// active (open or pending) ticket on that connection, so it shows in the conversation; without one,
// a new ticket that is closed at once, so a notification never fills the attendants' queues. The
// contact's reply opens a pending ticket through the inbound pipeline as usual.
import { randomUUID } from 'node:crypto';
import { AppError } from '@zapdesk/sync';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import type { ContactRow } from '../contacts/queries.ts';
import { startTrackings } from '../ticket-tracking/service.ts';
import type { TicketRow } from './dto.ts';

export async function findOrCreateNotificationTicket(tx: Tx, connectionId: number, contact: Pick<ContactRow, 'id' | 'companyId' | 'isGroup'>): Promise<TicketRow> {
  const ticket = (await findOrCreateNotificationTickets(tx, contact.companyId, connectionId, [contact])).get(contact.id);
  if (!ticket) throw new AppError('ERR_CREATING_TICKET');
  return ticket;
}

/**
 * The same for many contacts of one company at once (a campaign's batch): one read of their active
 * tickets, one insert of the missing ones, one of their tracking rows. Answers contact id → ticket.
 */
export async function findOrCreateNotificationTickets(
  tx: Tx,
  companyId: number,
  connectionId: number,
  contacts: Pick<ContactRow, 'id' | 'companyId' | 'isGroup'>[],
): Promise<Map<number, TicketRow>> {
  const t = tenant(tx.db, companyId);
  const byContact = new Map<number, TicketRow>();
  const ids = [...new Set(contacts.map((c) => c.id))];
  if (ids.length === 0) return byContact;
  const active = await t
    .selectFrom('tickets')
    .selectAll('tickets')
    .where('tickets.contactId', 'in', ids)
    .where('tickets.whatsappId', '=', connectionId)
    .where('tickets.status', 'in', ['open', 'pending'])
    .orderBy('tickets.id')
    .execute();
  // The newest one when a contact has several.
  for (const ticket of active) byContact.set(ticket.contactId, ticket);
  const missing = new Map<number, Pick<ContactRow, 'id' | 'companyId' | 'isGroup'>>();
  for (const c of contacts) if (!byContact.has(c.id)) missing.set(c.id, c);
  if (missing.size === 0) return byContact;
  const now = new Date().toISOString();
  const created = await t
    .insertInto(
      'tickets',
      [...missing.values()].map((c) => ({ uuid: randomUUID(), status: 'closed', contactId: c.id, whatsappId: connectionId, isGroup: c.isGroup, closedAt: now, lastInteractionAt: now })),
    )
    .returningAll()
    .execute();
  if (created.length !== missing.size) throw new AppError('ERR_CREATING_TICKET');
  await startTrackings(tx.db, companyId, created, { finishedAt: now });
  for (const ticket of created) byContact.set(ticket.contactId, ticket);
  tx.effects.poke(companyId);
  return byContact;
}
