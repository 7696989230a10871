// Messages of a ticket: the page an agent opens (marking it read), an agent's send, a resend, a delete.
// Writes take the route's or the push's transaction (`Tx`); the network is touched only outside it:
// sends leave through the outbox, read receipts after the commit, a delete before its write.
import { AppError, isCompanyAdmin, MESSAGES_PAGE_SIZE, type Message, type MessagePage } from '@zapdesk/sync';
import type { Actor } from '../../context.ts';
import { inSlices } from '../../db/slices.ts';
import { tenant } from '../../db/tenant.ts';
import { change, emit } from '../../events/emit.ts';
import type { Reader, Tx } from '../../db/write.ts';
import { contactPeer, findContact } from '../contacts/queries.ts';
import type { NewUpload } from '../media/uploads.ts';
import { readQuickMessageAttachment } from '../quick-messages/attachment.ts';
import type { TicketRow } from '../tickets/dto.ts';
import { getVisibleTicket } from '../tickets/service.ts';
import { toMessageDtos, type MessageRow } from './dto.ts';
import { queueTicketUploads, requeueFailedMessage } from './send.ts';

export async function listMessages(r: Reader, actor: Actor, ticketId: number, pageNumber: number): Promise<MessagePage & { ticket: TicketRow }> {
  const { row } = await getVisibleTicket(r, actor, ticketId);
  const rows = await tenant(r.db, actor.companyId)
    .selectFrom('messages')
    .selectAll('messages')
    .where('messages.ticketId', '=', row.id)
    .orderBy('messages.createdAt', 'desc')
    .orderBy('messages.id', 'desc')
    .limit(MESSAGES_PAGE_SIZE + 1)
    .offset((pageNumber - 1) * MESSAGES_PAGE_SIZE)
    .execute();
  const hasMore = rows.length > MESSAGES_PAGE_SIZE;
  // Newest page first; within a page, oldest first, as the chat draws it.
  const page = rows.slice(0, MESSAGES_PAGE_SIZE).reverse();
  return { messages: await toMessageDtos(r.db, actor.companyId, page), hasMore, ticket: row };
}

/**
 * Unread messages the opening write marks read at most, and sends read receipts for: the newest, the
 * ones the chat shows. A ticket left unread for weeks may hold tens of thousands; marking them all in
 * that write held SQLite's writer 0.34–0.47 s for 50,000 (every company's requests waited), so the older
 * ones are marked after the commit, a slice per write (db/slices.ts).
 */
export const READ_IN_OPENING = 500;

/**
 * Up to `limit` of the ticket's unread messages from its contact, newest first and below `before` (a
 * message id; none: from the newest), marked read with a version bump each (the clients hear it);
 * answers them, newest first. Ids are read first, then written (db/slices.ts), so a statement never
 * binds more than `limit` values.
 */
export async function markReadSlice(tx: Tx, companyId: number, ticketId: number, limit: number, before?: number): Promise<{ id: number; wid: string }[]> {
  const t = tenant(tx.db, companyId);
  const rows = await t
    .selectFrom('messages')
    .select(['messages.id', 'messages.wid'])
    .where('messages.ticketId', '=', ticketId)
    .where('messages.read', '=', 0)
    .where('messages.fromMe', '=', 0)
    .$if(before !== undefined, (q) => q.where('messages.id', '<', before!))
    .orderBy('messages.id', 'desc')
    .limit(limit)
    .execute();
  if (rows.length === 0) return rows;
  const now = new Date().toISOString();
  await t
    .updateTable('messages')
    .set((eb) => ({ read: 1, updatedAt: now, version: eb('messages.version', '+', 1) }))
    .where('messages.id', 'in', rows.map((r) => r.id))
    .execute();
  tx.effects.poke(companyId);
  return rows;
}

/**
 * The holder opened the ticket: its contact's messages are read and the unread count is zero. The
 * network's blue ticks follow after the commit, as a courtesy: their failure fails nothing.
 */
export async function markTicketRead(tx: Tx, row: TicketRow): Promise<TicketRow> {
  const { companyId } = row;
  const newest = await markReadSlice(tx, companyId, row.id, READ_IN_OPENING);
  if (newest.length === 0 && row.unreadMessages === 0) return row;
  const now = new Date().toISOString();
  const updated = await tenant(tx.db, companyId)
    .updateTable('tickets')
    .set((eb) => ({ unreadMessages: 0, updatedAt: now, version: eb('tickets.version', '+', 1) }))
    .where('tickets.id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  tx.effects.poke(companyId);
  await emit(tx, change(companyId, 'ticket', 'update', row.id));
  if (newest.length === READ_IN_OPENING) {
    // Older unread ones may be left: marked after the commit, below the oldest marked here. If the
    // process stops first, the next opening marks them (they are still unread).
    let before = newest.at(-1)!.id;
    tx.effects.afterCommit((app) =>
      inSlices(app, async (slice, limit) => {
        const marked = await markReadSlice(slice, companyId, row.id, limit, before);
        if (marked.length > 0) before = marked.at(-1)!.id;
        return marked.length;
      }),
    );
  }
  const contact = row.whatsappId && newest.length ? await findContact(tx.db, companyId, row.contactId) : undefined;
  if (row.whatsappId && contact) {
    const connectionId = row.whatsappId;
    const wids = newest.map((m) => m.wid).reverse();
    // Read receipts leave from the instance running the connection; none when it is down.
    tx.effects.afterCommit(({ sessions }) => sessions.queries(companyId, connectionId).markRead(contactPeer(contact), wids).catch(() => undefined));
  }
  return updated;
}

/** The ticket an agent may write in: open, and theirs (admins may write in any open ticket). */
export async function getWritableTicket(r: Reader, actor: Actor, ticketId: number): Promise<TicketRow> {
  const { row } = await getVisibleTicket(r, actor, ticketId);
  if (row.status !== 'open') throw new AppError('ERR_NO_PERMISSION', 'Messages can be sent only in open tickets: accept or reopen it first.');
  if (row.userId !== actor.userId && !isCompanyAdmin(actor)) throw new AppError('ERR_NO_PERMISSION', 'This ticket is attended by another user.');
  return row;
}

/**
 * An agent's message (and files): queued in the caller's transaction, shown at once, sent after the
 * commit. A quick answer's attachment (`quickMessageId`) goes first, captioned with the text, then
 * the agent's own files. Answers the rows; REST maps them (toMessageDtos), a push needs no answer.
 */
export async function sendAgentMessages(
  tx: Tx,
  actor: Actor,
  ticketId: number,
  input: { body: string; quotedMsgId?: number; signMessage: boolean; uploads: NewUpload[]; quickMessageId?: number | null },
): Promise<MessageRow[]> {
  const ticket = await getWritableTicket(tx, actor, ticketId);
  const quick = input.quickMessageId ? await readQuickMessageAttachment(tx.db, tx.config.mediaDir, actor, input.quickMessageId) : undefined;
  const uploads = quick ? [quick, ...input.uploads] : input.uploads;
  const text = input.body.trim();
  if (text === '' && uploads.length === 0) throw new AppError('ERR_VALIDATION', 'body: an empty message is not sent.', { issues: [{ path: 'body', message: 'Required' }] });
  let body = input.body;
  if (input.signMessage && text !== '') {
    const me = await tenant(tx.db, actor.companyId).selectFrom('users').select('users.name').where('users.id', '=', actor.userId).executeTakeFirstOrThrow();
    body = `*${me.name}*:\n${input.body}`;
  }
  return queueTicketUploads(tx, ticket, { body, quotedMsgId: input.quotedMsgId, uploads });
}

/**
 * Sends a failed message again (the chat's resend action), with the same rules as sending. A push
 * names the message under its ticket (`ticketId`): under any other ticket it is not found.
 */
export async function resendMessage(tx: Tx, actor: Actor, messageId: number, ticketId?: number): Promise<Message> {
  const message = await findMessage(tx, actor, messageId, ticketId);
  await getWritableTicket(tx, actor, message.ticketId);
  const queued = await requeueFailedMessage(tx, message);
  return (await toMessageDtos(tx.db, actor.companyId, [queued]))[0]!;
}

async function findMessage(r: Reader, actor: Actor, messageId: number, ticketId?: number): Promise<MessageRow> {
  const message = await tenant(r.db, actor.companyId)
    .selectFrom('messages')
    .selectAll('messages')
    .where('messages.id', '=', messageId)
    .$if(ticketId !== undefined, (q) => q.where('messages.ticketId', '=', ticketId!))
    .executeTakeFirst();
  if (!message) throw new AppError('ERR_NOT_FOUND', 'No message found with this ID.');
  return message;
}

/** A message the actor may delete for everyone: theirs to handle, sent from here. Read before the network call. */
export async function findDeletableMessage(r: Reader, actor: Actor, messageId: number): Promise<{ message: MessageRow; ticket: TicketRow }> {
  const message = await findMessage(r, actor, messageId);
  const { row: ticket } = await getVisibleTicket(r, actor, message.ticketId);
  if (message.fromMe !== 1) throw new AppError('ERR_NO_PERMISSION', 'Only messages sent from here can be deleted.');
  if (ticket.userId !== actor.userId && !isCompanyAdmin(actor)) throw new AppError('ERR_NO_PERMISSION', 'This ticket is attended by another user.');
  return { message, ticket };
}

/** Records a delete the network accepted. */
export async function markMessageDeleted(tx: Tx, actor: Actor, messageId: number): Promise<Message> {
  const updated = await tenant(tx.db, actor.companyId)
    .updateTable('messages')
    .set((eb) => ({ isDeleted: 1, updatedAt: new Date().toISOString(), version: eb('messages.version', '+', 1) }))
    .where('messages.id', '=', messageId)
    .returningAll()
    .executeTakeFirstOrThrow();
  tx.effects.poke(actor.companyId);
  return (await toMessageDtos(tx.db, actor.companyId, [updated]))[0]!;
}
