// Outgoing messages are rows first (DESIGN §12): the one path for agents, the bot, greetings,
// farewells, ratings, schedules and the external API. The message row (ack 0, `queued`, shown at
// once) and its outbox entry are written in the caller's transaction; the connection's dispatcher
// (outbound/dispatcher.ts) sends it after the commit. Nothing here touches the network.
import { randomUUID } from 'node:crypto';
import { change, emit, ticketOrder } from '../../events/emit.ts';
import { AppError } from '@zapdesk/sync';
import type { Tx } from '../../db/write.ts';
import { tenant } from '../../db/tenant.ts';
import { chunk } from '../../sync/views/types.ts';
import { removeMediaFile, saveTicketMedia, type StoredMedia } from '../media/storage.ts';
import type { NewUpload } from '../media/uploads.ts';
import type { TicketRow } from '../tickets/dto.ts';
import { previewOf, type MessageRow } from './dto.ts';
import { insertOutboxRow, insertOutboxRows, insertQueuedMessage, insertQueuedMessageId, insertQueuedMessageRows, touchTicketOnSend, touchTicketsOnSend } from './queries.ts';

/** The WhatsApp id of a message the network has not accepted yet (unique per connection until it does). */
export const PENDING_WID_PREFIX = 'pending:';

/**
 * A network id that is the message's until the network names it, unique per connection. It starts
 * with the time (base 36, fixed width until 2059), so a burst of sends adds to one end of the
 * (company, connection, wid) index rather than to a page at random per message (a page more to
 * write at each commit).
 */
export const pendingWid = () => `${PENDING_WID_PREFIX}${Date.now().toString(36)}-${randomUUID()}`;

export type OutgoingMessage = {
  body: string;
  media?: StoredMedia;
  quotedMsgId?: number | null;
  /** Who hears the outcome (outbound/outcomes.ts), e.g. `schedule:12`. */
  origin?: string;
  /** Not sent before this moment (a bot's pause between its messages); the ticket's later messages wait behind it. */
  notBefore?: string;
};

/** Queues a message in the ticket's conversation; it leaves through the ticket's connection after the commit. */
export async function queueTicketMessage(tx: Tx, ticket: TicketRow, out: OutgoingMessage): Promise<MessageRow> {
  const connectionId = ticket.whatsappId;
  if (connectionId === null) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The ticket has no connection to send through.');
  const t = tenant(tx.db, ticket.companyId);
  const quoted = out.quotedMsgId
    ? await t.selectFrom('messages').select('messages.id').where('messages.id', '=', out.quotedMsgId).where('messages.ticketId', '=', ticket.id).executeTakeFirst()
    : undefined;
  if (out.quotedMsgId && !quoted) throw new AppError('ERR_VALIDATION', 'quotedMsg: not a message of this ticket.');

  const now = new Date().toISOString();
  const companyId = ticket.companyId;
  const row = (
    await insertQueuedMessage(tx.db, {
      companyId,
      // Unique per connection until the network names it.
      wid: pendingWid(),
      ticketId: ticket.id,
      contactId: ticket.contactId,
      whatsappId: connectionId,
      body: out.body,
      mediaType: out.media?.mediaType ?? null,
      mediaUrl: out.media?.relPath ?? null,
      quotedMsgId: quoted?.id ?? null,
      data: out.media ? JSON.stringify({ fileName: out.media.fileName, mimeType: out.media.mimeType, size: out.media.size }) : null,
      now,
    })
  ).rows[0];
  if (!row) throw new AppError('ERR_CREATING_MESSAGE');
  await insertOutboxRow(tx.db, { companyId, whatsappId: connectionId, ticketId: ticket.id, messageId: row.id, origin: out.origin ?? null, notBefore: out.notBefore ?? null });
  await touchTicketOnSend(tx.db, { companyId, ticketId: ticket.id, lastMessage: previewOf(out.body, row.mediaType, out.media?.fileName), now });
  tx.effects.poke(ticket.companyId);
  tx.effects.dispatch(connectionId);
  await emit(tx, change(companyId, 'appMessage', 'create', row.id, { hooks: ['message.sent'], orderKey: ticketOrder(ticket.id) }));
  return row;
}

/** Rows (or tickets) per statement when queueing many messages at once. */
const ROWS_PER_STATEMENT = 500;

/** What queueMessages answers of each row it wrote. */
export type QueuedMessage = Pick<MessageRow, 'id' | 'wid' | 'ticketId' | 'whatsappId' | 'mediaType'>;

/**
 * Queues many messages at once (a campaign's batch, a flow's step): the same rows as
 * queueTicketMessage, written with one insert for the messages and one for their outbox entries (on
 * SQLite one statement per row would also write a full-text segment per row), and each ticket's
 * preview touched once, after its last message. Answers the rows' ids in the order given (not the
 * whole rows: RETURNING * costs SQLite as much as the insert). No quoted replies here.
 * `ticketTouched`: the caller already set each ticket's preview and clock (previewOf its last
 * message) and bumped its version in its own update of the ticket, so it is not updated again.
 */
export async function queueMessages(
  tx: Tx,
  companyId: number,
  items: { ticket: TicketRow; out: Omit<OutgoingMessage, 'quotedMsgId'> }[],
  opts: { ticketTouched?: boolean } = {},
): Promise<QueuedMessage[]> {
  if (items.length === 0) return [];
  if (items.length === 1 && !opts.ticketTouched) return [await queueTicketMessage(tx, items[0]!.ticket, items[0]!.out)];
  const now = new Date().toISOString();
  const values = items.map(({ ticket, out }) => {
    if (ticket.companyId !== companyId) throw new Error('queueMessages: a ticket of another company');
    if (ticket.whatsappId === null) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The ticket has no connection to send through.');
    return {
      wid: pendingWid(),
      ticketId: ticket.id,
      contactId: ticket.contactId,
      whatsappId: ticket.whatsappId,
      body: out.body,
      fromMe: 1,
      read: 1,
      ack: 0,
      sendStatus: 'queued',
      mediaType: out.media?.mediaType ?? null,
      mediaUrl: out.media?.relPath ?? null,
      quotedMsgId: null,
      data: out.media ? JSON.stringify({ fileName: out.media.fileName, mimeType: out.media.mimeType, size: out.media.size }) : null,
      createdAt: now,
      updatedAt: now,
    };
  });
  let messages: QueuedMessage[];
  if (values.length === 1) {
    // One message (most of a flow's steps): the statements compiled once.
    const v = values[0]!;
    const row = (await insertQueuedMessageId(tx.db, { companyId, ...v, now })).rows[0];
    if (!row) throw new AppError('ERR_CREATING_MESSAGE');
    messages = [{ id: row.id, wid: v.wid, ticketId: v.ticketId, whatsappId: v.whatsappId, mediaType: v.mediaType }];
    await insertOutboxRow(tx.db, { companyId, whatsappId: v.whatsappId, ticketId: v.ticketId, messageId: row.id, origin: items[0]!.out.origin ?? null, notBefore: items[0]!.out.notBefore ?? null });
  } else {
    messages = [];
    // In parts: a statement takes so many values at most (a campaign's batch of 50 recipients with
    // a list of 40 files is 2,050 messages of 16 values each, past SQLite's 32,766).
    for (let at = 0; at < values.length; at += ROWS_PER_STATEMENT) {
      const part = values.slice(at, at + ROWS_PER_STATEMENT);
      const { rows: inserted } = await insertQueuedMessageRows(tx.db, { companyId, rows: part });
      // RETURNING's order is not promised: matched back by the unique pending wid.
      const ids = new Map(inserted.map((r) => [r.wid, r.id]));
      const queued = part.map((v) => {
        const id = ids.get(v.wid);
        if (id === undefined) throw new AppError('ERR_CREATING_MESSAGE');
        return { id, wid: v.wid, ticketId: v.ticketId, whatsappId: v.whatsappId, mediaType: v.mediaType };
      });
      await insertOutboxRows(tx.db, {
        companyId,
        rows: queued.map((m, i) => ({ whatsappId: m.whatsappId!, ticketId: m.ticketId, messageId: m.id, origin: items[at + i]!.out.origin ?? null, notBefore: items[at + i]!.out.notBefore ?? null })),
      });
      messages.push(...queued);
    }
  }
  if (!opts.ticketTouched) {
    const last = new Map<number, { lastMessage: string }>();
    items.forEach(({ ticket, out }, i) => last.set(ticket.id, { lastMessage: previewOf(out.body, messages[i]!.mediaType, out.media?.fileName) }));
    if (last.size === 1) {
      for (const [ticketId, { lastMessage }] of last) await touchTicketOnSend(tx.db, { companyId, ticketId, lastMessage, now });
    } else {
      // A campaign's batch: a ticket each, one statement for all of them (or for each part).
      for (const part of chunk([...last], ROWS_PER_STATEMENT)) {
        await touchTicketsOnSend(tx.db, { companyId, ticketIds: part.map(([id]) => id), lastMessages: part.map(([, l]) => l.lastMessage), now });
      }
    }
  }
  tx.effects.poke(companyId);
  for (const connectionId of new Set(messages.map((m) => m.whatsappId!))) tx.effects.dispatch(connectionId);
  await emit(tx, messages.map((m) => change(companyId, 'appMessage', 'create', m.id, { hooks: ['message.sent'], orderKey: ticketOrder(m.ticketId) })));
  return messages;
}

/**
 * Queues a text and files as the chat sends them: one message per file, the text travelling once
 * as the first file's caption (alone when there is no file). Each file is stored in the ticket's
 * folder and removed again if the write rolls back.
 */
export async function queueTicketUploads(tx: Tx, ticket: TicketRow, input: { body: string; quotedMsgId?: number; uploads: NewUpload[] }): Promise<MessageRow[]> {
  if (input.uploads.length === 0) return [await queueTicketMessage(tx, ticket, { body: input.body, quotedMsgId: input.quotedMsgId })];
  const queued: MessageRow[] = [];
  const { mediaDir } = tx.config;
  for (const [i, upload] of input.uploads.entries()) {
    const media = await saveTicketMedia(mediaDir, ticket.companyId, ticket.id, upload);
    tx.effects.onRollback(() => removeMediaFile(mediaDir, media.relPath));
    queued.push(await queueTicketMessage(tx, ticket, { body: i === 0 ? input.body : '', media, quotedMsgId: i === 0 ? input.quotedMsgId : undefined }));
  }
  return queued;
}

/**
 * Puts a failed message back in its connection's queue (the chat's resend action). Only a message
 * sent from here that failed; it keeps its place in the conversation and leaves after the commit.
 */
export async function requeueFailedMessage(tx: Tx, message: MessageRow): Promise<MessageRow> {
  if (message.fromMe !== 1 || message.sendStatus !== 'failed') throw new AppError('ERR_VALIDATION', 'Only a message that failed to send can be sent again.');
  if (message.whatsappId === null) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The connection of this message is gone.');
  const t = tenant(tx.db, message.companyId);
  const row = await t
    .updateTable('messages')
    .set((eb) => ({ sendStatus: 'queued', sendError: null, updatedAt: new Date().toISOString(), version: eb('messages.version', '+', 1) }))
    .where('messages.id', '=', message.id)
    .where('messages.sendStatus', '=', 'failed')
    .returningAll()
    .executeTakeFirst();
  // Resent meanwhile by another click: it is queued already.
  if (!row) return (await t.selectFrom('messages').selectAll('messages').where('messages.id', '=', message.id).executeTakeFirstOrThrow());
  await t.insertInto('outbox', { whatsappId: message.whatsappId, ticketId: message.ticketId, messageId: message.id }).execute();
  tx.effects.poke(message.companyId);
  tx.effects.dispatch(message.whatsappId);
  return row;
}
