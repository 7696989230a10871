// The dispatcher's statements, the per-send ones compiled once (../db/prepared.ts): a lane claims
// what it starts together, then runs two reads and a record for every message. Each filters by company.
import { sql } from 'kysely';
import { runFirst, type Database } from '../db/database.ts';
import { prepare } from '../db/prepared.ts';
import { tenant } from '../db/tenant.ts';

/** queued → sending, named for this process: answers the ids claimed (not those taken or removed meanwhile). */
export async function claimRows(db: Database, companyId: number, ids: number[], instance: string): Promise<Set<number>> {
  const claim = tenant(db, companyId)
    .updateTable('outbox')
    .set((eb) => ({ state: 'sending', claimedBy: instance, claimedAt: new Date().toISOString(), attempts: eb('outbox.attempts', '+', 1) }))
    .where('outbox.id', 'in', ids)
    .where('outbox.state', '=', 'queued')
    .returning('outbox.id');
  // Ahead of the writes waiting for SQLite's writer: the lane's slots are idle until it is done.
  const { rows } = await runFirst(db, claim.compile());
  return new Set(rows.map((r) => r.id));
}

/** What a send needs of its message: text, file, the contact (through the ticket) and the quoted message's network id. */
export const selectSendable = prepare((db, p: { companyId: number; messageId: number }) =>
  db
    .selectFrom('messages')
    .innerJoin('tickets', 'tickets.id', 'messages.ticketId')
    .innerJoin('contacts', 'contacts.id', 'tickets.contactId')
    .leftJoin('messages as quoted', 'quoted.id', 'messages.quotedMsgId')
    .select([
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
    .where('messages.companyId', '=', p.companyId)
    .where('messages.id', '=', p.messageId),
);

/**
 * A network that reports our own send back as a message from the phone may have had it stored
 * first: that row is this message, so it goes and ours takes its id.
 */
export const deleteEcho = prepare((db, p: { companyId: number; whatsappId: number; wid: string; messageId: number }) =>
  db
    .deleteFrom('messages')
    .where('messages.companyId', '=', p.companyId)
    .where('messages.whatsappId', '=', p.whatsappId)
    .where('messages.wid', '=', p.wid)
    .where('messages.id', '!=', p.messageId),
);

/** The network took it: its id, ack 1 (or more, if an ack came first), `sent`, a new version. */
export const markSent = prepare((db, p: { companyId: number; messageId: number; wid: string; now: string }) =>
  db
    .updateTable('messages')
    .set((eb) => ({
      wid: p.wid,
      ack: sql<number>`case when ack < 1 then 1 else ack end`,
      sendStatus: 'sent',
      sendError: null,
      updatedAt: p.now,
      version: eb('messages.version', '+', 1),
    }))
    .where('messages.companyId', '=', p.companyId)
    .where('messages.id', '=', p.messageId),
);

/** The row leaves the queue once its message is sent or failed. */
export const deleteOutboxRow = prepare((db, p: { companyId: number; id: number }) =>
  db.deleteFrom('outbox').where('outbox.companyId', '=', p.companyId).where('outbox.id', '=', p.id),
);
