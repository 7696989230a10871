// Sending a message into a ticket: the one path for agents, the bot, the external API and jobs.
// The row is written first (ack 0, shown at once), sent through the connection's queue, then gets
// the network's id and ack 1; a failed send removes the row, so nothing half-written remains.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { AppError } from '@zapdesk/sync';
import { sql } from 'kysely';
import type { OutboundContent } from '../../channels/types.ts';
import type { AppDeps } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { tenant } from '../../db/tenant.ts';
import { contactPeer, findContact } from '../contacts/queries.ts';
import { resolveMediaFile, type StoredMedia } from '../media/storage.ts';
import type { TicketRow } from '../tickets/dto.ts';
import { previewOf, type MessageRow } from './dto.ts';

export type OutgoingMessage = {
  body: string;
  media?: StoredMedia;
  quotedMsgId?: number | null;
};

const CHANNEL_MEDIA: Record<StoredMedia['mediaType'], 'image' | 'audio' | 'video' | 'document'> = {
  image: 'image',
  audio: 'audio',
  video: 'video',
  application: 'document',
};

export async function sendTicketMessage(deps: AppDeps, ticket: TicketRow, out: OutgoingMessage): Promise<MessageRow> {
  const companyId = ticket.companyId;
  const connectionId = ticket.whatsappId;
  if (connectionId === null) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The ticket has no connection to send through.');
  const t = tenant(deps.db, companyId);
  const contact = await findContact(deps.db, companyId, ticket.contactId);
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  const quoted = out.quotedMsgId
    ? await t.selectFrom('messages').select(['messages.id', 'messages.wid']).where('messages.id', '=', out.quotedMsgId).where('messages.ticketId', '=', ticket.id).executeTakeFirst()
    : undefined;
  if (out.quotedMsgId && !quoted) throw new AppError('ERR_VALIDATION', 'quotedMsg: not a message of this ticket.');

  const content = await buildContent(deps, out);
  const row = await t
    .insertInto('messages', {
      wid: `pending:${randomUUID()}`,
      ticketId: ticket.id,
      contactId: contact.id,
      whatsappId: connectionId,
      body: out.body,
      fromMe: 1,
      read: 1,
      ack: 0,
      mediaType: out.media?.mediaType ?? null,
      mediaUrl: out.media?.relPath ?? null,
      quotedMsgId: quoted?.id ?? null,
      data: out.media ? JSON.stringify({ fileName: out.media.fileName, mimeType: out.media.mimeType, size: out.media.size }) : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

  let sent;
  try {
    sent = await deps.outbound.send(connectionId, { to: contactPeer(contact), content, quotedId: quoted?.wid });
  } catch (err) {
    await t.deleteFrom('messages').where('messages.id', '=', row.id).execute();
    throw err;
  }
  const now = new Date().toISOString();
  let stored: MessageRow;
  try {
    stored = await t
      .updateTable('messages')
      .set((eb) => ({ wid: sent.id, ack: sql<number>`case when ack < 1 then 1 else ack end`, updatedAt: now, version: eb('messages.version', '+', 1) }))
      .where('messages.id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (err) {
    // The network echoed our own message back first and the pipeline stored it: keep that row.
    if (!isUniqueViolation(err)) throw err;
    await t.deleteFrom('messages').where('messages.id', '=', row.id).execute();
    stored = await t.selectFrom('messages').selectAll('messages').where('messages.whatsappId', '=', connectionId).where('messages.wid', '=', sent.id).executeTakeFirstOrThrow();
  }
  await t
    .updateTable('tickets')
    .set((eb) => ({
      lastMessage: previewOf(out.body, stored.mediaType, out.media?.fileName),
      lastInteractionAt: now,
      updatedAt: now,
      version: eb('tickets.version', '+', 1),
    }))
    .where('tickets.id', '=', ticket.id)
    .execute();
  return stored;
}

async function buildContent(deps: AppDeps, out: OutgoingMessage): Promise<OutboundContent> {
  if (!out.media) return { kind: 'text', body: out.body };
  const file = resolveMediaFile(deps.config.mediaDir, out.media.relPath);
  if (!file) throw new AppError('ERR_SENDING_WAPP_MSG', 'The media file is missing.');
  const data = await readFile(file);
  return {
    kind: 'media',
    mediaType: CHANNEL_MEDIA[out.media.mediaType],
    data,
    mimeType: out.media.mimeType,
    fileName: out.media.fileName,
    caption: out.body || undefined,
    ptt: out.media.mediaType === 'audio' ? true : undefined,
  };
}
