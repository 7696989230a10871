// The inbound pipeline's per-message queries, compiled once (../db/prepared.ts). Each filters by company.
import type { Insertable } from 'kysely';
import type { Messages } from '../db/schema.ts';
import { prepare } from '../db/prepared.ts';

/** The contact's tickets on a connection that matter to a new message: active, or closed and awaiting a rating. */
export const selectContactTickets = prepare((db, p: { companyId: number; contactId: number; connectionId: number }) =>
  db
    .selectFrom('tickets')
    .selectAll('tickets')
    .where('tickets.companyId', '=', p.companyId)
    .where('tickets.contactId', '=', p.contactId)
    .where('tickets.whatsappId', '=', p.connectionId)
    .where((eb) => eb.or([eb('tickets.status', 'in', ['open', 'pending']), eb('tickets.awaitingRating', '=', 1)])),
);

/** A new pending ticket, or nothing when the contact already has an active one there (unique index). */
export const insertPendingTicket = prepare(
  (db, p: { companyId: number; uuid: string; contactId: number; connectionId: number; isGroup: number; now: string }) =>
    db
      .insertInto('tickets')
      .values({ companyId: p.companyId, uuid: p.uuid, status: 'pending', contactId: p.contactId, whatsappId: p.connectionId, isGroup: p.isGroup, lastInteractionAt: p.now })
      .onConflict((oc) => oc.doNothing())
      .returningAll(),
);

/** A message row as the pipeline inserts it (store.ts, one multi-row insert per batch). */
export type MessageValues = Required<Pick<Insertable<Messages>, 'wid' | 'ticketId' | 'contactId' | 'whatsappId' | 'body' | 'fromMe' | 'read' | 'ack' | 'mediaType' | 'mediaUrl' | 'quotedMsgId' | 'participant' | 'data' | 'createdAt'>>;

/** New messages in the ticket: the last one's preview, clocks, unread count (+ those unread) and new versions (one per message). */
export const touchTicket = prepare((db, p: { companyId: number; ticketId: number; lastMessage: string; now: string; unread: number; versions: number }) =>
  db
    .updateTable('tickets')
    .set((eb) => ({
      lastMessage: p.lastMessage,
      lastInteractionAt: p.now,
      updatedAt: p.now,
      unreadMessages: eb('tickets.unreadMessages', '+', p.unread),
      version: eb('tickets.version', '+', p.versions),
    }))
    .where('tickets.companyId', '=', p.companyId)
    .where('tickets.id', '=', p.ticketId),
);

/** A stored message of the connection by its WhatsApp id (redelivery checks, quoted replies). */
export const selectMessageByWid = prepare((db, p: { companyId: number; connectionId: number; wid: string }) =>
  db
    .selectFrom('messages')
    .select('messages.id')
    .where('messages.companyId', '=', p.companyId)
    .where('messages.whatsappId', '=', p.connectionId)
    .where('messages.wid', '=', p.wid),
);
