// The ticket a notification goes through (the external API, a scheduled message): the contact's
// active (open or pending) ticket on that connection, so it shows in the conversation; without one,
// a new ticket that is closed at once, so a notification never fills the attendants' queues. The
// contact's reply opens a pending ticket through the inbound pipeline as usual.
import { randomUUID } from 'node:crypto';
import { AppError } from '@zapdesk/sync';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import type { ContactRow } from '../contacts/queries.ts';
import { startTracking } from '../ticket-tracking/service.ts';
import type { TicketRow } from './dto.ts';

export async function findOrCreateNotificationTicket(tx: Tx, connectionId: number, contact: Pick<ContactRow, 'id' | 'companyId' | 'isGroup'>): Promise<TicketRow> {
  const t = tenant(tx.db, contact.companyId);
  const active = await t
    .selectFrom('tickets')
    .selectAll('tickets')
    .where('tickets.contactId', '=', contact.id)
    .where('tickets.whatsappId', '=', connectionId)
    .where('tickets.status', 'in', ['open', 'pending'])
    .orderBy('tickets.id', 'desc')
    .executeTakeFirst();
  if (active) return active;
  const now = new Date().toISOString();
  const ticket = await t
    .insertInto('tickets', { uuid: randomUUID(), status: 'closed', contactId: contact.id, whatsappId: connectionId, isGroup: contact.isGroup, closedAt: now, lastInteractionAt: now })
    .returningAll()
    .executeTakeFirst();
  if (!ticket) throw new AppError('ERR_CREATING_TICKET');
  await startTracking(tx.db, contact.companyId, ticket, { finishedAt: now });
  tx.effects.poke(contact.companyId);
  return ticket;
}
