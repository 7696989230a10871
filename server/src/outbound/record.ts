// The dispatcher's short transactions: how a send ended, written on the message row its readers see
// (version bumped, the company poked) and on the outbox row, which leaves the queue once its message
// is sent or failed. Each runs inside `write()`, never around a network call.
import type { AppDeps } from '../context.ts';
import { tenant } from '../db/tenant.ts';
import { write, type Tx } from '../db/write.ts';
import { change, emit } from '../events/emit.ts';
import type { QueuedRow } from './dispatcher.ts';
import { tellOrigin } from './outcomes.ts';
import { deleteEcho, deleteOutboxRow, markSent } from './queries.ts';

/** The failure code of a row that was in flight when its process died: it may or may not have left. */
export const UNCONFIRMED = 'ERR_SEND_UNCONFIRMED';

/** The network took the message: its id, ack 1 (or more, if an ack came first), `sent`. */
export async function recordSent(tx: Tx, companyId: number, row: QueuedRow, wid: string): Promise<void> {
  await deleteEcho(tx.db, { companyId, whatsappId: row.whatsappId, wid, messageId: row.messageId });
  await markSent(tx.db, { companyId, messageId: row.messageId, wid, now: new Date().toISOString() });
  await emit(tx, change(companyId, 'appMessage', 'update', row.messageId));
  await finish(tx, companyId, row, { status: 'sent' });
}

/** The message failed for good with a catalogue code; the chat offers to send it again. */
export async function recordFailed(tx: Tx, companyId: number, row: Pick<QueuedRow, 'id' | 'messageId' | 'origin'>, code: string): Promise<void> {
  await markFailed(tx, companyId, row.messageId, code);
  await emit(tx, change(companyId, 'appMessage', 'update', row.messageId));
  await finish(tx, companyId, row, { status: 'failed', code });
}

/** Back in the queue: the connection went down (the attempt does not count), or a retry after `notBefore`. */
export async function recordRequeued(tx: Tx, companyId: number, row: QueuedRow, opts: { countAttempt: boolean; notBefore?: string }): Promise<void> {
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

async function finish(tx: Tx, companyId: number, row: Pick<QueuedRow, 'id' | 'origin'>, outcome: Parameters<typeof tellOrigin>[3]) {
  await deleteOutboxRow(tx.db, { companyId, id: row.id });
  await tellOrigin(tx, companyId, row.origin, outcome);
  tx.effects.poke(companyId);
}
