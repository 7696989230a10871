// Messages of a ticket: the page an agent opens (marking it read), an agent's send, a delete.
import { AppError, MESSAGES_PAGE_SIZE, type Message, type MessagePage, type Ticket } from '@zapdesk/sync';
import type { Actor, AppDeps } from '../../context.ts';
import { tenant } from '../../db/tenant.ts';
import { contactPeer, findContact } from '../contacts/queries.ts';
import { removeMediaFile, saveTicketMedia, type StoredMedia } from '../media/storage.ts';
import { toTicketDto, type TicketRow } from '../tickets/dto.ts';
import { announceTicketChange } from '../tickets/events.ts';
import { getVisibleTicket } from '../tickets/service.ts';
import { toMessageDtos } from './dto.ts';
import { sendTicketMessage } from './send.ts';

export async function listMessages(deps: AppDeps, actor: Actor, ticketId: number, pageNumber: number): Promise<MessagePage & { ticket: Ticket }> {
  const { row } = await getVisibleTicket(deps, actor, ticketId);
  const t = tenant(deps.db, actor.companyId);
  const rows = await t
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
  let ticket = row;
  if (row.userId === actor.userId) ticket = await markTicketRead(deps, row);
  return { messages: await toMessageDtos(deps.db, actor.companyId, page), hasMore, ticket: await toTicketDto(deps.db, actor.companyId, ticket) };
}

/** The holder opened the ticket: its contact's messages are read and the unread count is zero. */
async function markTicketRead(deps: AppDeps, row: TicketRow): Promise<TicketRow> {
  const t = tenant(deps.db, row.companyId);
  const unread = await t
    .selectFrom('messages')
    .select(['messages.id', 'messages.wid'])
    .where('messages.ticketId', '=', row.id)
    .where('messages.read', '=', 0)
    .where('messages.fromMe', '=', 0)
    .execute();
  if (unread.length === 0 && row.unreadMessages === 0) return row;
  const now = new Date().toISOString();
  const updated = await deps.db.transaction().execute(async (trx) => {
    const tt = tenant(trx, row.companyId);
    if (unread.length) {
      await tt
        .updateTable('messages')
        .set((eb) => ({ read: 1, updatedAt: now, version: eb('messages.version', '+', 1) }))
        .where('messages.id', 'in', unread.map((m) => m.id))
        .execute();
    }
    return tt
      .updateTable('tickets')
      .set((eb) => ({ unreadMessages: 0, version: eb('tickets.version', '+', 1) }))
      .where('tickets.id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  announceTicketChange(deps, row.companyId);
  const channel = row.whatsappId ? deps.outbound.channel(row.whatsappId) : undefined;
  const contact = channel && unread.length ? await findContact(deps.db, row.companyId, row.contactId) : undefined;
  if (channel && contact) {
    // Blue ticks are a courtesy: a failure here must not fail opening the ticket.
    channel.markRead(contactPeer(contact), unread.map((m) => m.wid)).catch((err: unknown) => deps.log.warn('markRead failed', { error: String(err) }));
  }
  return updated;
}

export type NewUpload = { data: Buffer; fileName: string; mimeType: string; kind: StoredMedia['kind']; mediaType: StoredMedia['mediaType'] };

/** The ticket an agent may write in: open, and theirs (admins may write in any open ticket). */
export async function getWritableTicket(deps: AppDeps, actor: Actor, ticketId: number): Promise<TicketRow> {
  const { row } = await getVisibleTicket(deps, actor, ticketId);
  if (row.status !== 'open') throw new AppError('ERR_NO_PERMISSION', 'Messages can be sent only in open tickets: accept or reopen it first.');
  if (row.userId !== actor.userId && actor.profile !== 'admin') throw new AppError('ERR_NO_PERMISSION', 'This ticket is attended by another user.');
  return row;
}

export async function sendAgentMessages(
  deps: AppDeps,
  actor: Actor,
  ticket: TicketRow,
  input: { body: string; quotedMsgId?: number; signMessage: boolean; uploads: NewUpload[] },
): Promise<Message[]> {
  const text = input.body.trim();
  if (text === '' && input.uploads.length === 0) throw new AppError('ERR_VALIDATION', 'body: an empty message is not sent.', { issues: [{ path: 'body', message: 'Required' }] });
  let body = input.body;
  if (input.signMessage && text !== '') {
    const me = await tenant(deps.db, actor.companyId).selectFrom('users').select('users.name').where('users.id', '=', actor.userId).executeTakeFirstOrThrow();
    body = `*${me.name}*:\n${input.body}`;
  }
  const sent = [];
  if (input.uploads.length === 0) {
    sent.push(await sendTicketMessage(deps, ticket, { body, quotedMsgId: input.quotedMsgId }));
  }
  for (const [i, upload] of input.uploads.entries()) {
    const media = await saveTicketMedia(deps.config.mediaDir, actor.companyId, ticket.id, upload);
    try {
      // The text travels once, as the first file's caption.
      sent.push(await sendTicketMessage(deps, ticket, { body: i === 0 ? body : '', media, quotedMsgId: i === 0 ? input.quotedMsgId : undefined }));
    } catch (err) {
      await removeMediaFile(deps.config.mediaDir, media.relPath);
      throw err;
    }
  }
  announceTicketChange(deps, actor.companyId);
  return toMessageDtos(deps.db, actor.companyId, sent);
}

export async function deleteMessage(deps: AppDeps, actor: Actor, messageId: number): Promise<Message> {
  const t = tenant(deps.db, actor.companyId);
  const message = await t.selectFrom('messages').selectAll('messages').where('messages.id', '=', messageId).executeTakeFirst();
  if (!message) throw new AppError('ERR_NOT_FOUND', 'No message found with this ID.');
  const { row: ticket } = await getVisibleTicket(deps, actor, message.ticketId);
  if (message.fromMe !== 1) throw new AppError('ERR_NO_PERMISSION', 'Only messages sent from here can be deleted.');
  if (ticket.userId !== actor.userId && actor.profile !== 'admin') throw new AppError('ERR_NO_PERMISSION', 'This ticket is attended by another user.');
  if (message.isDeleted === 1) return (await toMessageDtos(deps.db, actor.companyId, [message]))[0]!;
  const channel = message.whatsappId ? deps.outbound.channel(message.whatsappId) : undefined;
  if (!channel) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  const contact = await findContact(deps.db, actor.companyId, ticket.contactId);
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  try {
    await channel.deleteMessage(contactPeer(contact), message.wid);
  } catch (err) {
    if (err instanceof AppError && err.code === 'ERR_DELETE_WAPP_MSG') throw err;
    throw new AppError('ERR_DELETE_WAPP_MSG', undefined, { details: { cause: err instanceof Error ? err.message : String(err) } });
  }
  const updated = await t
    .updateTable('messages')
    .set((eb) => ({ isDeleted: 1, updatedAt: new Date().toISOString(), version: eb('messages.version', '+', 1) }))
    .where('messages.id', '=', message.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  announceTicketChange(deps, actor.companyId);
  return (await toMessageDtos(deps.db, actor.companyId, [updated]))[0]!;
}
