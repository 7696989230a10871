// What the network is asked to send for one outbox row: built at dispatch time from its message row
// as the lane read it with the queue (its text, its stored file, the network id of the message it
// quotes, the contact).
import { readFile } from 'node:fs/promises';
import { AppError } from '@zapdesk/sync';
import type { OutboundContent, SendRequest } from '../channels/types.ts';
import { contactPeer } from '../modules/contacts/queries.ts';
import { resolveMediaFile } from '../modules/media/storage.ts';
import { PENDING_WID_PREFIX } from '../modules/messages/send.ts';
import type { Sendable } from './queries.ts';

const CHANNEL_MEDIA: Record<string, 'image' | 'audio' | 'video' | 'document'> = {
  image: 'image',
  audio: 'audio',
  video: 'video',
  application: 'document',
};

/** The request for a message read with its outbox row (null: the message or its contact is gone), or an AppError that fails it for good. */
export async function requestFor(mediaDir: string, message: Sendable | null): Promise<SendRequest> {
  if (!message) throw new AppError('ERR_SENDING_WAPP_MSG', 'The message or its contact is gone.');
  const request: SendRequest = { to: contactPeer(message), content: await contentOf(mediaDir, message) };
  // A quoted message that never reached the network has no id there: sent without the quote.
  if (message.quotedWid && !message.quotedWid.startsWith(PENDING_WID_PREFIX)) request.quotedId = message.quotedWid;
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
