// The dispatcher's statements, the per-send ones compiled once (../db/prepared.ts): a lane reads its
// queue ahead, claims what it starts together with what each row sends, and records the outcomes.
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

/** An outbox row as a lane holds it: what picking, claiming and recording it need (what it sends is read with its claim). */
export type OutboxRow = Pick<Selectable<Outbox>, 'id' | 'whatsappId' | 'ticketId' | 'messageId' | 'origin' | 'attempts' | 'notBefore'>;

/**
 * The oldest queued rows of a connection, leaving out tickets with a row under way: a lane's
 * read-ahead. The outbox row alone: it runs on SQLite's read-only connection, whose page cache
 * starts cold after every commit elsewhere, so it reads as few pages as it can; what each row sends
 * is read with its claim, on the writer (claimRows).
 */
export async function readQueue(db: Database, p: { companyId: number; connectionId: number; skipTickets: number[]; limit: number }): Promise<OutboxRow[]> {
  return (await selectQueued(db, p)).rows;
}

const selectQueued = prepare((db, p: { companyId: number; connectionId: number; skipTickets: number[]; limit: number }) =>
  db
    .selectFrom('outbox')
    .select(['outbox.id', 'outbox.whatsappId', 'outbox.ticketId', 'outbox.messageId', 'outbox.origin', 'outbox.attempts', 'outbox.notBefore'])
    .where('outbox.companyId', '=', p.companyId)
    .where('outbox.whatsappId', '=', p.connectionId)
    .where('outbox.state', '=', 'queued')
    .$if(p.skipTickets.length > 0, (q) => q.where('outbox.ticketId', 'not in', p.skipTickets))
    .orderBy('outbox.id')
    .limit(p.limit),
  { padLists: true },
);

/**
 * queued → sending, named for this process, and what each claimed row sends: answers the rows
 * claimed (not those taken or removed meanwhile), each with its Sendable (null when its message or
 * contact is gone). Both statements hold SQLite's writer once, ahead of the writes waiting for it:
 * the lane's slots are idle until it is done, and the writer's page cache is warm.
 */
export async function claimRows(db: Database, companyId: number, ids: number[], instance: string): Promise<Map<number, Sendable | null>> {
  const [claimed, content] = await runFirst(db, [
    claim.compiled(db, { companyId, ids, instance, now: new Date().toISOString() }),
    selectSendables.compiled(db, { companyId, ids }),
  ]);
  const taken = new Set((claimed!.rows as { id: number }[]).map((r) => r.id));
  const out = new Map<number, Sendable | null>();
  for (const { id, body, number, ...rest } of content!.rows as SendableRow[]) {
    if (taken.has(id)) out.set(id, body === null || number === null ? null : { ...rest, body, number, isGroup: rest.isGroup ?? 0, name: rest.name ?? '' });
  }
  for (const id of taken) if (!out.has(id)) out.set(id, null);
  return out;
}

type SendableRow = { [K in keyof Sendable]: Sendable[K] | null } & { id: number };

const claim = prepare((db, p: { companyId: number; ids: number[]; instance: string; now: string }) =>
  db
    .updateTable('outbox')
    .set((eb) => ({ state: 'sending', claimedBy: p.instance, claimedAt: p.now, attempts: eb('outbox.attempts', '+', 1) }))
    .where('outbox.companyId', '=', p.companyId)
    .where('outbox.id', 'in', p.ids)
    .where('outbox.state', '=', 'queued')
    .returning('outbox.id'),
  { padLists: true },
);

const selectSendables = prepare((db, p: { companyId: number; ids: number[] }) =>
  db
    .selectFrom('outbox')
    .leftJoin('messages', (j) => j.onRef('messages.id', '=', 'outbox.messageId').on('messages.companyId', '=', p.companyId))
    .leftJoin('tickets', 'tickets.id', 'messages.ticketId')
    .leftJoin('contacts', (j) => j.onRef('contacts.id', '=', 'tickets.contactId').on('contacts.companyId', '=', p.companyId))
    .leftJoin('messages as quoted', 'quoted.id', 'messages.quotedMsgId')
    .select([
      'outbox.id',
      'messages.body',
      'messages.mediaType',
      'messages.mediaUrl',
      'messages.data',
      'quoted.wid as quotedWid',
      'contacts.jid',
      'contacts.lid',
      'contacts.number',
      'contacts.isGroup',
      'contacts.name',
    ])
    .where('outbox.companyId', '=', p.companyId)
    .where('outbox.id', 'in', p.ids),
  { padLists: true },
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
  { padLists: true },
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
  { padLists: true },
);

/** deleteOutboxRow for several rows at once. */
export const deleteOutboxRows = prepare((db, p: { companyId: number; ids: number[] }) =>
  db.deleteFrom('outbox').where('outbox.companyId', '=', p.companyId).where('outbox.id', 'in', p.ids),
  { padLists: true },
);
