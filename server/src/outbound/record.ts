// The dispatcher's short transactions: how a send ended, written on the message row its readers see
// (version bumped, the company poked) and on the outbox row, which leaves the queue once its message
// is sent or failed; then what the recipient's phone says of it (recordAck). Each runs inside
// `write()`, never around a network call.
import type { Ack } from '../channels/types.ts';
import type { AppDeps } from '../context.ts';
import { tenant } from '../db/tenant.ts';
import { write, type Tx } from '../db/write.ts';
import { change, emit } from '../events/emit.ts';
import { groupBy } from '../inbound/resolve.ts';
import { tellOrigin, tellOriginsSent } from './outcomes.ts';
import { deleteEchoes, deleteOutboxRow, deleteOutboxRows, markSentBatch, type OutboxRow } from './queries.ts';

/** The failure code of a row that was in flight when its process died: it may or may not have left. */
export const UNCONFIRMED = 'ERR_SEND_UNCONFIRMED';

/** The network took the message: its id, ack 1 (or more, if an ack came first), `sent`. */
export async function recordSent(tx: Tx, companyId: number, row: OutboxRow, wid: string): Promise<void> {
  await deleteEchoes(tx.db, { companyId, whatsappId: row.whatsappId, wids: [wid], messageIds: [row.messageId] });
  await markSentBatch(tx.db, { companyId, messageIds: [row.messageId], wids: [wid], now: new Date().toISOString() });
  await emit(tx, change(companyId, 'appMessage', 'update', row.messageId));
  await finish(tx, companyId, row, { status: 'sent' });
}

/**
 * The recipient's phone confirmed a message of the connection (delivered, read, played): its ack
 * only moves forward (a late "delivered" never undoes "read"). `unknown`: no message has the id
 * (yet: receipts.ts), told from `stale` (one more read) only for an ack above 1: "sent" needs no
 * keeping, recording the send sets it.
 */
export async function recordAck(tx: Tx, companyId: number, connectionId: number, update: { id: string; ack: Ack }): Promise<'advanced' | 'stale' | 'unknown'> {
  const db = tenant(tx.db, companyId);
  const res = await db
    .updateTable('messages')
    .set((eb) => ({ ack: update.ack, updatedAt: new Date().toISOString(), version: eb('messages.version', '+', 1) }))
    .where('messages.whatsappId', '=', connectionId)
    .where('messages.wid', '=', update.id)
    .where('messages.ack', '<', update.ack)
    .returning('messages.id')
    .executeTakeFirst();
  if (res) {
    tx.effects.poke(companyId);
    await emit(tx, change(companyId, 'appMessage', 'update', res.id));
    return 'advanced';
  }
  if (update.ack <= 1) return 'stale';
  const known = await db.selectFrom('messages').select('messages.id').where('messages.whatsappId', '=', connectionId).where('messages.wid', '=', update.id).executeTakeFirst();
  return known ? 'stale' : 'unknown';
}

/** A send the network took: the row and the message's network id. */
export type Taken = { row: OutboxRow; wid: string };

/**
 * Several sends of one company the network took, recorded as `recordSent` records each, with one
 * statement per kind for all of them: echoes removed, messages marked sent (each announced, as one
 * emit), outbox rows gone. The origins hear each outcome (a campaign's recipients in one statement),
 * and the company is poked once.
 */
export async function recordSentBatch(tx: Tx, companyId: number, taken: Taken[]): Promise<void> {
  if (taken.length === 1) return recordSent(tx, companyId, taken[0]!.row, taken[0]!.wid);
  const messageIds = taken.map((s) => s.row.messageId);
  // A network id names one message of ours: a stored row with one of these ids that is not among
  // these messages is an echo.
  for (const [whatsappId, group] of groupBy(taken, (s) => s.row.whatsappId)) {
    await deleteEchoes(tx.db, { companyId, whatsappId, wids: group.map((s) => s.wid), messageIds });
  }
  await markSentBatch(tx.db, { companyId, messageIds, wids: taken.map((s) => s.wid), now: new Date().toISOString() });
  await emit(tx, taken.map((s) => change(companyId, 'appMessage', 'update', s.row.messageId)));
  await deleteOutboxRows(tx.db, { companyId, ids: taken.map((s) => s.row.id) });
  await tellOriginsSent(tx, companyId, taken.map((s) => s.row.origin));
  tx.effects.poke(companyId);
}

/** The message failed for good with a catalogue code; the chat offers to send it again. */
export async function recordFailed(tx: Tx, companyId: number, row: Pick<OutboxRow, 'id' | 'messageId' | 'origin'>, code: string): Promise<void> {
  await markFailed(tx, companyId, row.messageId, code);
  await emit(tx, change(companyId, 'appMessage', 'update', row.messageId));
  await finish(tx, companyId, row, { status: 'failed', code });
}

/** Back in the queue: the connection went down (the attempt does not count), or a retry after `notBefore`. */
export async function recordRequeued(tx: Tx, companyId: number, row: OutboxRow, opts: { countAttempt: boolean; notBefore?: string }): Promise<void> {
  await tenant(tx.db, companyId)
    .updateTable('outbox')
    .set((eb) => ({
      state: 'queued',
      claimedBy: null,
      claimedAt: null,
      notBefore: opts.notBefore ?? null,
      attempts: opts.countAttempt ? eb.ref('outbox.attempts') : eb('outbox.attempts', '-', 1),
      updatedAt: new Date().toISOString(),
    }))
    .where('outbox.id', '=', row.id)
    .execute();
}

/**
 * Rows of the connection left `sending` by another process (it died, or lost the connection's lease,
 * mid-send) are never sent again on their own: WhatsApp has no idempotency key, and at most once
 * beats twice. They fail as unconfirmed; the user may resend.
 */
export async function recoverUnconfirmed(deps: AppDeps, companyId: number, connectionId: number, instance: string): Promise<number> {
  return write(deps, async (tx) => {
    const rows = await tenant(tx.db, companyId)
      .selectFrom('outbox')
      .select(['outbox.id', 'outbox.messageId', 'outbox.origin'])
      .where('outbox.whatsappId', '=', connectionId)
      .where('outbox.state', '=', 'sending')
      .where((eb) => eb.or([eb('outbox.claimedBy', 'is', null), eb('outbox.claimedBy', '!=', instance)]))
      .execute();
    for (const row of rows) await recordFailed(tx, companyId, row, UNCONFIRMED);
    if (rows.length) tx.log.warn('outbox: sends interrupted by a stop are marked unconfirmed', { connectionId, messages: rows.map((r) => r.messageId) });
    return rows.length;
  });
}

async function markFailed(tx: Tx, companyId: number, messageId: number, code: string) {
  await tenant(tx.db, companyId)
    .updateTable('messages')
    .set((eb) => ({ sendStatus: 'failed', sendError: code, updatedAt: new Date().toISOString(), version: eb('messages.version', '+', 1) }))
    .where('messages.id', '=', messageId)
    .execute();
}

async function finish(tx: Tx, companyId: number, row: Pick<OutboxRow, 'id' | 'origin'>, outcome: Parameters<typeof tellOrigin>[3]) {
  await deleteOutboxRow(tx.db, { companyId, id: row.id });
  await tellOrigin(tx, companyId, row.origin, outcome);
  tx.effects.poke(companyId);
}
