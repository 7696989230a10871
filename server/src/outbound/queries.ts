// The dispatcher's statements, the per-send ones compiled once (../db/prepared.ts): a lane reads its
// queue ahead with what each row sends, claims what it starts together, and records the outcomes.
// Each filters by company.
import { sql, type Selectable } from 'kysely';
import { runFirst, type Database } from '../db/database.ts';
import { prepare } from '../db/prepared.ts';
import type { Outbox } from '../db/schema.ts';
import { valueById } from '../db/value-by-id.ts';

/** What a send needs of its message: text, file, the contact and the quoted message's network id (null fields: gone). */
export type Sendable = {
  body: string;
  mediaType: string | null;
  mediaUrl: string | null;
  data: string | null;
  quotedWid: string | null;
  jid: string | null;
  lid: string | null;
  number: string;
  isGroup: number;
  name: string;
};

export type OutboxRow = Selectable<Outbox>;

/** An outbox row as a lane holds it: with what it sends, read with it (null when its message or contact is gone). */
export type QueuedRow = OutboxRow & { sendable: Sendable | null };

/**
 * The oldest queued rows of a connection, leaving out tickets with a row under way, each with what it
 * sends: one statement for a lane's read-ahead instead of a read per send.
 */
export async function readQueue(db: Database, p: { companyId: number; connectionId: number; skipTickets: number[]; limit: number }): Promise<QueuedRow[]> {
  const { rows } = await selectQueued(db, p);
  return rows.map(({ sBody, sMediaType, sMediaUrl, sData, sQuotedWid, sJid, sLid, sNumber, sIsGroup, sName, ...row }) => ({
    ...row,
    sendable: sBody === null || sNumber === null ? null : { body: sBody, mediaType: sMediaType, mediaUrl: sMediaUrl, data: sData, quotedWid: sQuotedWid, jid: sJid, lid: sLid, number: sNumber, isGroup: sIsGroup ?? 0, name: sName ?? '' },
  }));
}

const selectQueued = prepare((db, p: { companyId: number; connectionId: number; skipTickets: number[]; limit: number }) =>
  db
    .selectFrom('outbox')
    .leftJoin('messages', (j) => j.onRef('messages.id', '=', 'outbox.messageId').on('messages.companyId', '=', p.companyId))
    .leftJoin('tickets', 'tickets.id', 'messages.ticketId')
    .leftJoin('contacts', (j) => j.onRef('contacts.id', '=', 'tickets.contactId').on('contacts.companyId', '=', p.companyId))
    .leftJoin('messages as quoted', 'quoted.id', 'messages.quotedMsgId')
    .selectAll('outbox')
    .select([
      'messages.body as sBody',
      'messages.mediaType as sMediaType',
      'messages.mediaUrl as sMediaUrl',
      'messages.data as sData',
      'quoted.wid as sQuotedWid',
      'contacts.jid as sJid',
      'contacts.lid as sLid',
      'contacts.number as sNumber',
      'contacts.isGroup as sIsGroup',
      'contacts.name as sName',
    ])
    .where('outbox.companyId', '=', p.companyId)
    .where('outbox.whatsappId', '=', p.connectionId)
    .where('outbox.state', '=', 'queued')
    .$if(p.skipTickets.length > 0, (q) => q.where('outbox.ticketId', 'not in', p.skipTickets))
    .orderBy('outbox.id')
    .limit(p.limit),
);

/** queued → sending, named for this process: answers the ids claimed (not those taken or removed meanwhile). */
export async function claimRows(db: Database, companyId: number, ids: number[], instance: string): Promise<Set<number>> {
  // Ahead of the writes waiting for SQLite's writer: the lane's slots are idle until it is done.
  const { rows } = await runFirst(db, claim.compiled(db, { companyId, ids, instance, now: new Date().toISOString() }));
  return new Set(rows.map((r) => r.id));
}

const claim = prepare((db, p: { companyId: number; ids: number[]; instance: string; now: string }) =>
  db
    .updateTable('outbox')
    .set((eb) => ({ state: 'sending', claimedBy: p.instance, claimedAt: p.now, attempts: eb('outbox.attempts', '+', 1) }))
    .where('outbox.companyId', '=', p.companyId)
    .where('outbox.id', 'in', p.ids)
    .where('outbox.state', '=', 'queued')
    .returning('outbox.id'),
);

/** The row leaves the queue once its message is sent or failed. */
export const deleteOutboxRow = prepare((db, p: { companyId: number; id: number }) =>
  db.deleteFrom('outbox').where('outbox.companyId', '=', p.companyId).where('outbox.id', '=', p.id),
);

/**
 * A network that reports our own send back as a message from the phone may have had it stored
 * first: a row of the connection with one of these network ids that is not among these messages is
 * that echo, so it goes and ours takes its id.
 */
export const deleteEchoes = prepare((db, p: { companyId: number; whatsappId: number; wids: string[]; messageIds: number[] }) =>
  db
    .deleteFrom('messages')
    .where('messages.companyId', '=', p.companyId)
    .where('messages.whatsappId', '=', p.whatsappId)
    .where('messages.wid', 'in', p.wids)
    .where('messages.id', 'not in', p.messageIds),
);

/** The network took them (`messageIds[i]` as `wids[i]`): their ids, ack 1 (or more, if an ack came first), `sent`, new versions. */
export const markSentBatch = prepare((db, p: { companyId: number; messageIds: number[]; wids: string[]; now: string }) =>
  db
    .updateTable('messages')
    .set((eb) => ({
      wid: valueById<string>('messages.id', p.messageIds.map((id, i) => [id, p.wids[i]]), 'text'),
      ack: sql<number>`case when ack < 1 then 1 else ack end`,
      sendStatus: 'sent',
      sendError: null,
      updatedAt: p.now,
      version: eb('messages.version', '+', 1),
    }))
    .where('messages.companyId', '=', p.companyId)
    .where('messages.id', 'in', p.messageIds),
);

/** deleteOutboxRow for several rows at once. */
export const deleteOutboxRows = prepare((db, p: { companyId: number; ids: number[] }) =>
  db.deleteFrom('outbox').where('outbox.companyId', '=', p.companyId).where('outbox.id', 'in', p.ids),
);
