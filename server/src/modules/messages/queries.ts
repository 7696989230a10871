// The send path's per-message statements, compiled once (../../db/prepared.ts): every outgoing
// message runs them inside its write, and building a Kysely query costs more than SQLite takes to
// run it. Each filters by company.
import { prepare } from '../../db/prepared.ts';
import { valueById } from '../../db/value-by-id.ts';

type QueuedMessageParams = {
  companyId: number;
  wid: string;
  ticketId: number;
  contactId: number;
  whatsappId: number;
  body: string;
  mediaType: string | null;
  mediaUrl: string | null;
  quotedMsgId: number | null;
  data: string | null;
  now: string;
};

/** An outgoing message row as queued: ack 0, `queued`, ours and read. */
const queuedMessageInsert = (db: Parameters<Parameters<typeof prepare>[0]>[0], p: QueuedMessageParams) =>
  db.insertInto('messages').values({
    companyId: p.companyId,
    wid: p.wid,
    ticketId: p.ticketId,
    contactId: p.contactId,
    whatsappId: p.whatsappId,
    body: p.body,
    fromMe: 1,
    read: 1,
    ack: 0,
    sendStatus: 'queued',
    mediaType: p.mediaType,
    mediaUrl: p.mediaUrl,
    quotedMsgId: p.quotedMsgId,
    data: p.data,
    createdAt: p.now,
    updatedAt: p.now,
  });

export const insertQueuedMessage = prepare((db, p: QueuedMessageParams) => queuedMessageInsert(db, p).returningAll());

/** The same row, answering only its id (RETURNING * costs SQLite as much as the insert). */
export const insertQueuedMessageId = prepare((db, p: QueuedMessageParams) => queuedMessageInsert(db, p).returning('messages.id'));

/** Its place in the connection's queue. */
export const insertOutboxRow = prepare((db, p: { companyId: number; whatsappId: number; ticketId: number; messageId: number; origin: string | null; notBefore: string | null }) =>
  db.insertInto('outbox').values({ companyId: p.companyId, whatsappId: p.whatsappId, ticketId: p.ticketId, messageId: p.messageId, origin: p.origin, notBefore: p.notBefore }),
);

/** The ticket's preview and clocks follow its newest message; a new version. */
export const touchTicketOnSend = prepare((db, p: { companyId: number; ticketId: number; lastMessage: string; now: string }) =>
  db
    .updateTable('tickets')
    .set((eb) => ({ lastMessage: p.lastMessage, lastInteractionAt: p.now, updatedAt: p.now, version: eb('tickets.version', '+', 1) }))
    .where('tickets.companyId', '=', p.companyId)
    .where('tickets.id', '=', p.ticketId),
);

/** Queued message rows as queueMessages builds them (the batch form of insertQueuedMessageId). */
export type QueuedMessageRow = Omit<QueuedMessageParams, 'companyId' | 'now'> & { fromMe: number; read: number; ack: number; sendStatus: string; createdAt: string; updatedAt: string };

/** Several queued messages in one insert (a flow step's texts, a campaign's batch): their ids by pending wid. */
export const insertQueuedMessageRows = prepare((db, p: { companyId: number; rows: QueuedMessageRow[] }) =>
  db
    .insertInto('messages')
    .values(p.rows.map((row) => ({ ...row, companyId: p.companyId })))
    .returning(['messages.id', 'messages.wid']),
);

/** Their places in the queues, in one insert. */
export const insertOutboxRows = prepare((db, p: { companyId: number; rows: { whatsappId: number; ticketId: number; messageId: number; origin: string | null; notBefore: string | null }[] }) =>
  db.insertInto('outbox').values(p.rows.map((row) => ({ ...row, companyId: p.companyId }))),
);

/** touchTicketOnSend for several tickets (a campaign's batch): `ticketIds[i]` shows `lastMessages[i]`. */
export const touchTicketsOnSend = prepare((db, p: { companyId: number; ticketIds: number[]; lastMessages: string[]; now: string }) =>
  db
    .updateTable('tickets')
    .set((eb) => ({
      lastMessage: valueById<string>('tickets.id', p.ticketIds.map((id, i) => [id, p.lastMessages[i]]), 'text'),
      lastInteractionAt: p.now,
      updatedAt: p.now,
      version: eb('tickets.version', '+', 1),
    }))
    .where('tickets.companyId', '=', p.companyId)
    .where('tickets.id', 'in', p.ticketIds),
  { padLists: true },
);
