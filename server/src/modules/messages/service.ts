// Messages of a ticket: the page an agent opens (marking it read), an agent's send, a resend, a delete.
// Writes take the route's or the push's transaction (`Tx`); the network is touched only outside it:
// sends leave through the outbox, read receipts after the commit, a delete before its write.
import { AppError, isCompanyAdmin, MESSAGES_PAGE_SIZE, type Message, type MessagePage } from '@zapdesk/sync';
import type { Actor } from '../../context.ts';
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

/** Read receipts sent for a ticket opened at most (its newest unread messages). */
const READ_RECEIPTS_MAX = 500;

/**
 * The holder opened the ticket: its contact's messages are read and the unread count is zero. The
 * network's blue ticks follow after the commit, as a courtesy: their failure fails nothing.
 */
export async function markTicketRead(tx: Tx, row: TicketRow): Promise<TicketRow> {
  const t = tenant(tx.db, row.companyId);
  const now = new Date().toISOString();
  // Marked by their condition, not by a list of ids (a ticket left unread for weeks may hold more
  // than a statement takes values); the rows marked come back for the receipts, oldest first.
  const unread = (
    await t
      .updateTable('messages')
      .set((eb) => ({ read: 1, updatedAt: now, version: eb('messages.version', '+', 1) }))
      .where('messages.ticketId', '=', row.id)
      .where('messages.read', '=', 0)
      .where('messages.fromMe', '=', 0)
      .returning(['messages.id', 'messages.wid'])
      .execute()
  ).sort((a, b) => a.id - b.id);
  if (unread.length === 0 && row.unreadMessages === 0) return row;
  const updated = await t
    .updateTable('tickets')
    .set((eb) => ({ unreadMessages: 0, updatedAt: now, version: eb('tickets.version', '+', 1) }))
    .where('tickets.id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  tx.effects.poke(row.companyId);
  await emit(tx, change(row.companyId, 'ticket', 'update', row.id));
  const contact = row.whatsappId && unread.length ? await findContact(tx.db, row.companyId, row.contactId) : undefined;
  if (row.whatsappId && contact) {
    const connectionId = row.whatsappId;
    // The newest ones: a backlog of thousands is not sent as thousands of receipts.
    const wids = unread.slice(-READ_RECEIPTS_MAX).map((m) => m.wid);
    const companyId = row.companyId;
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

/** Sends a failed message again (the chat's resend action), with the same rules as sending. */
export async function resendMessage(tx: Tx, actor: Actor, messageId: number): Promise<Message> {
  const message = await findMessage(tx, actor, messageId);
  await getWritableTicket(tx, actor, message.ticketId);
  const queued = await requeueFailedMessage(tx, message);
  return (await toMessageDtos(tx.db, actor.companyId, [queued]))[0]!;
}

async function findMessage(r: Reader, actor: Actor, messageId: number): Promise<MessageRow> {
  const message = await tenant(r.db, actor.companyId).selectFrom('messages').selectAll('messages').where('messages.id', '=', messageId).executeTakeFirst();
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
