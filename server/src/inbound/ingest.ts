// The inbound pipeline: one message from the network → stored once, in the right ticket, then the
// automation chain. Rules chosen where the spec is silent are in README.md beside this file.
import type { InboundMessage } from '../channels/types.ts';
import type { AppDeps } from '../context.ts';
import { profilePictureDue } from '../modules/contacts/profile-picture.ts';
import { peerKey } from '../modules/contacts/queries.ts';
import { removeMediaFile } from '../modules/media/storage.ts';
import { write } from '../db/write.ts';
import { wantsAutomation } from './automation.ts';
import { runInboundChain } from './chain.ts';
import { takeConfirmationReply } from '../modules/campaigns/dispatch/replies.ts';
import { loadConnectionContext, type ConnectionContext } from './connection-context.ts';
import { runGrouped, type Store } from './group-commit.ts';
import { captureRating, dropRatingWait, parseRating } from './rating.ts';
import { InsertConflict, storeDeliveries, type Delivery, type Stored } from './store.ts';

export type { ConnectionRow } from './store.ts';
export { mediaTypeOf } from './store.ts';

export type IngestResult =
  | {
      status: 'stored';
      messageId: number;
      ticketId: number;
      contactId: number;
      ticketCreated: boolean;
      /** The contact's picture is due for a refresh, by the contact row the message was stored with. */
      pictureDue: boolean;
    }
  | { status: 'duplicate' | 'ignored'; reason?: string };

export async function ingest(deps: AppDeps, connection: { id: number; companyId: number }, msg: InboundMessage): Promise<IngestResult> {
  const key = peerKey(msg.from);
  if (!key) return { status: 'ignored', reason: 'no sender' };
  return deps.contactLocks.run(`${connection.companyId}:${key}`, () => ingestLocked(deps, connection, msg));
}

/** The store function of the group commit: one per app, so the batches of one app share it. */
const stores = new WeakMap<AppDeps, Store<Delivery, Stored | 'duplicate'>>();
const storeOf = (deps: AppDeps) => {
  let store = stores.get(deps);
  if (!store) stores.set(deps, (store = (tx, deliveries) => storeDeliveries(tx, deliveries)));
  return store;
};

async function ingestLocked(deps: AppDeps, ref: { id: number; companyId: number }, msg: InboundMessage): Promise<IngestResult> {
  const context = await loadConnectionContext(deps, ref);
  if (!context) return { status: 'ignored', reason: 'unknown connection' };
  const { connection, settings } = context;
  if (msg.from.isGroup && settings.CheckMsgIsGroup === 'enabled') return { status: 'ignored', reason: 'group messages are ignored' };

  const rated = msg.fromMe ? undefined : parseRating(msg.body);
  const delivery: Delivery = { connection, msg, rated };
  let stored: Stored | 'duplicate';
  try {
    stored = await runGrouped(deps, ref.companyId, delivery, storeOf(deps));
  } catch (err) {
    if (delivery.media) await removeMediaFile(deps.config.mediaDir, delivery.media.relPath);
    // Stored meanwhile by a concurrent delivery (the transaction rolled back): a redelivery.
    if (err instanceof InsertConflict) return { status: 'duplicate' };
    throw err;
  }
  if (stored === 'duplicate') return { status: 'duplicate' };
  const result: IngestResult = {
    status: 'stored',
    messageId: stored.messageId,
    ticketId: stored.ticket.id,
    contactId: stored.contact.id,
    ticketCreated: stored.created,
    pictureDue: profilePictureDue(stored.contact.profilePicCheckedAt),
  };
  if (msg.fromMe) return result;
  // A yes or a no to a confirmation campaign is the campaign's answer, not the bot's.
  if (await takeConfirmationReply(deps, stored.awaitingConfirmation, stored.contact, stored.ticket, msg.body ?? '')) return result;
  // The rating reply, or the automation chain: one write of their own after the message's commit
  // (none when nothing in the chain could answer: a connection without bots stores and is done),
  // started at once: the customer waits for what it answers (db/write.ts, `soon`).
  if (!stored.ratingTicket && !(wantsAutomation(stored) && chainMayAct(context, stored, msg.body ?? ''))) return result;
  await write(deps, async (tx) => {
    if (stored.ratingTicket && stored.ratingTicket.id === stored.ticket.id && rated !== undefined) {
      await captureRating(tx, stored.ticket, rated);
      return;
    }
    // Any other reply ends the wait for a rating; the message went the normal way.
    if (stored.ratingTicket) await dropRatingWait(tx, stored.ratingTicket);
    // The chain reads the ticket again, locked: it may have moved since the message was stored (chain.ts).
    const media = delivery.media ? { url: delivery.media.relPath, name: delivery.media.fileName, mimetype: delivery.media.mimeType } : undefined;
    await runInboundChain(tx, { context, ticket: stored.ticket, contact: stored.contact, messageId: stored.messageId, body: msg.body, ...(media ? { media } : {}), now: new Date() });
  }, { soon: true });
  return result;
}

/**
 * Whether any link of the chain could act on this message (automation.ts, flows-runtime,
 * assistants): a running flow, a queue (its options, assistant or hours), the company's business
 * hours, the connection's queue menu or assistant, or an active phrase campaign. Exact: when this
 * answers false, the chain's write would have changed nothing.
 */
function chainMayAct(context: ConnectionContext, stored: Stored, body: string): boolean {
  const { ticket } = stored;
  const { connection } = context;
  if (ticket.flowId !== null || ticket.queueId !== null || context.settings.scheduleType === 'company') return true;
  if (context.queues.length > 0 || connection.integrationId !== null || connection.promptId !== null) return true;
  return body.trim() !== '' && stored.phraseCampaigns;
}
