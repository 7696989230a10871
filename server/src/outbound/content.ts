// What the network is asked to send for one outbox row: read at dispatch time from the message row
// (its text, its stored file, the network id of the message it quotes) and the contact.
import { readFile } from 'node:fs/promises';
import { AppError } from '@zapdesk/sync';
import type { OutboundContent, SendRequest } from '../channels/types.ts';
import type { Database } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';
import { contactPeer } from '../modules/contacts/queries.ts';
import { resolveMediaFile } from '../modules/media/storage.ts';

const CHANNEL_MEDIA: Record<string, 'image' | 'audio' | 'video' | 'document'> = {
  image: 'image',
  audio: 'audio',
  video: 'video',
  application: 'document',
};

/** The request for a message, or an AppError that fails it for good (file or contact gone). */
export async function buildSendRequest(db: Database, mediaDir: string, companyId: number, messageId: number): Promise<SendRequest> {
  const t = tenant(db, companyId);
  const message = await t
    .selectFrom('messages')
    .innerJoin('tickets', 'tickets.id', 'messages.ticketId')
    .leftJoin('messages as quoted', 'quoted.id', 'messages.quotedMsgId')
    .select(['messages.body', 'messages.mediaType', 'messages.mediaUrl', 'messages.data', 'tickets.contactId', 'quoted.wid as quotedWid'])
    .where('messages.id', '=', messageId)
    .executeTakeFirst();
  if (!message) throw new AppError('ERR_SENDING_WAPP_MSG', 'The message is gone.');
  const contact = await t
    .selectFrom('contacts')
    .select(['contacts.jid', 'contacts.lid', 'contacts.number', 'contacts.isGroup', 'contacts.name'])
    .where('contacts.id', '=', message.contactId)
    .executeTakeFirst();
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  const request: SendRequest = { to: contactPeer(contact), content: await contentOf(mediaDir, message) };
  // A quoted message that never reached the network has no id there: sent without the quote.
  if (message.quotedWid && !message.quotedWid.startsWith('pending:')) request.quotedId = message.quotedWid;
  return request;
}

async function contentOf(mediaDir: string, m: { body: string; mediaType: string | null; mediaUrl: string | null; data: string | null }): Promise<OutboundContent> {
  if (!m.mediaUrl || !m.mediaType) return { kind: 'text', body: m.body };
  const file = resolveMediaFile(mediaDir, m.mediaUrl);
  const data = file ? await readFile(file).catch(() => undefined) : undefined;
  if (!data) throw new AppError('ERR_SENDING_WAPP_MSG', 'The media file is missing.');
  const meta = parseMeta(m.data);
  const mediaType = CHANNEL_MEDIA[m.mediaType] ?? 'document';
  return {
    kind: 'media',
    mediaType,
    data,
    mimeType: meta.mimeType ?? 'application/octet-stream',
    fileName: meta.fileName ?? 'file',
    caption: m.body || undefined,
    ptt: mediaType === 'audio' ? true : undefined,
  };
}

function parseMeta(data: string | null): { fileName?: string; mimeType?: string } {
  if (!data) return {};
  try {
    return JSON.parse(data) as { fileName?: string; mimeType?: string };
  } catch {
    return {};
  }
}
