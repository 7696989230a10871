// The inbound pipeline's per-message queries, compiled once (../db/prepared.ts). Each filters by company.
import type { Insertable } from 'kysely';
import type { Messages } from '../db/schema.ts';
import { prepare } from '../db/prepared.ts';
import { valueById } from '../db/value-by-id.ts';

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

/** A batch's messages of one connection already stored, by WhatsApp id (the redelivery check). */
export const selectStoredWids = prepare((db, p: { companyId: number; connectionId: number; wids: string[] }) =>
  db
    .selectFrom('messages')
    .select('messages.wid')
    .where('messages.companyId', '=', p.companyId)
    .where('messages.whatsappId', '=', p.connectionId)
    .where('messages.wid', 'in', p.wids),
  { padLists: true },
);

/** A batch's messages of one company (SQLite; PostgreSQL inserts by column arrays): refused rows (stored meanwhile) are left out of the answer. */
export const insertMessageRows = prepare((db, p: { companyId: number; rows: MessageValues[] }) =>
  db
    .insertInto('messages')
    .values(p.rows.map((row) => ({ ...row, companyId: p.companyId })))
    .onConflict((oc) => oc.doNothing())
    .returning(['messages.id', 'messages.whatsappId', 'messages.wid']),
);

/** touchTicket for several tickets of a batch (SQLite; PostgreSQL joins column arrays): `ticketIds[i]` gets `lastMessages[i]`, `unread[i]`, `versions[i]`. */
export const touchTicketRows = prepare((db, p: { companyId: number; ticketIds: number[]; lastMessages: string[]; unread: number[]; versions: number[]; now: string }) => {
  const byId = <T>(values: unknown[], type: 'text' | 'integer') => valueById<T>('tickets.id', p.ticketIds.map((id, i) => [id, values[i]]), type);
  return db
    .updateTable('tickets')
    .set((eb) => ({
      lastMessage: byId<string>(p.lastMessages, 'text'),
      lastInteractionAt: p.now,
      updatedAt: p.now,
      unreadMessages: eb('tickets.unreadMessages', '+', byId<number>(p.unread, 'integer')),
      version: eb('tickets.version', '+', byId<number>(p.versions, 'integer')),
    }))
    .where('tickets.companyId', '=', p.companyId)
    .where('tickets.id', 'in', p.ticketIds);
}, { padLists: true });

/** Contacts of a company by LID, or by number (the batch's lookups, lookups.ts). */
export const selectContactsByLid = prepare((db, p: { companyId: number; lids: string[] }) =>
  db.selectFrom('contacts').selectAll('contacts').where('contacts.companyId', '=', p.companyId).where('contacts.lid', 'in', p.lids),
  { padLists: true },
);
export const selectContactsByNumber = prepare((db, p: { companyId: number; numbers: string[] }) =>
  db.selectFrom('contacts').selectAll('contacts').where('contacts.companyId', '=', p.companyId).where('contacts.number', 'in', p.numbers),
  { padLists: true },
);

/** The contacts' tickets that matter to new messages (selectContactTickets for a batch, every connection). */
export const selectContactsTickets = prepare((db, p: { companyId: number; contactIds: number[] }) =>
  db
    .selectFrom('tickets')
    .selectAll('tickets')
    .where('tickets.companyId', '=', p.companyId)
    .where('tickets.contactId', 'in', p.contactIds)
    .where((eb) => eb.or([eb('tickets.status', 'in', ['open', 'pending']), eb('tickets.awaitingRating', '=', 1)])),
  { padLists: true },
);
