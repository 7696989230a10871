// Files an assistant answers with (a Typebot image bubble, a webhook's mediaUrl) are fetched after
// its call and before the write, checked like an agent's upload (type and size: spec/02's rules),
// and stored in the ticket's folder. A file that cannot be fetched or is not allowed is left out:
// its reply leaves as the link. A step with a voice has its text answers spoken (adapters/
// speech.ts) into voice notes stored the same way; one that cannot be spoken leaves as text.
import path from 'node:path';
import type { AppDeps } from '../context.ts';
import { classifyUpload, mediaTypeOfKind, saveTicketMedia, type StoredMedia } from '../modules/media/storage.ts';
import type { TicketRow } from '../modules/tickets/dto.ts';
import { synthesizeSpeech, type SpeechSettings } from './adapters/speech.ts';
import type { Reply } from './adapters/types.ts';
import { fetchTarget } from './adapters/http.ts';

/** A stored file of a reply; `spoken` is the text a voice note says (the reply's text, sent as audio). */
export type ReplyFile = StoredMedia & { spoken?: string };

const MAX_BYTES = 20 * 1024 * 1024;

/** The stored files by the index of their reply. */
export async function downloadReplyMedia(deps: AppDeps, ticket: TicketRow, replies: Reply[], signal: AbortSignal): Promise<Map<number, ReplyFile>> {
  const files = new Map<number, ReplyFile>();
  for (const [i, reply] of replies.entries()) {
    if (!reply.media) continue;
    try {
      const stored = await fetchOne(deps, ticket, reply.media.url, signal);
      if (stored) files.set(i, stored);
    } catch (err) {
      deps.log.warn('assistant media not fetched', { ticketId: ticket.id, url: reply.media.url, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return files;
}

async function fetchOne(deps: AppDeps, ticket: TicketRow, url: string, signal: AbortSignal): Promise<StoredMedia | undefined> {
  // The integration's answer named it: a loopback, private or metadata address is refused.
  const res = await fetchTarget(url, { signal }, { allowPrivate: deps.config.webhooks.allowPrivate });
  if (!res.ok) throw new Error(`answered ${res.status}`);
  const declared = Number(res.headers.get('content-length'));
  if (declared > MAX_BYTES) throw new Error('too big');
  const data = Buffer.from(await res.arrayBuffer());
  const fileName = decodeURIComponent(path.basename(new URL(url).pathname)) || 'file';
  const mimeType = res.headers.get('content-type') ?? '';
  const { kind } = classifyUpload({ fileName, mimeType, size: data.length });
  return saveTicketMedia(deps.config.mediaDir, ticket.companyId, ticket.id, { data, fileName, mimeType: mimeType.split(';')[0]!.trim() || 'application/octet-stream', mediaType: mediaTypeOfKind(kind), kind });
}

/**
 * The text answers (those without a file) as voice notes, by the index of their reply, spoken one
 * after the other within the turn's deadline. A voice that cannot be used, or a refusal of the
 * service, is logged and leaves the answers as text: the customer still gets them.
 */
export async function speakReplies(
  deps: AppDeps,
  ticket: TicketRow,
  replies: Reply[],
  speech: SpeechSettings | { problem: string },
  signal: AbortSignal,
): Promise<Map<number, ReplyFile>> {
  const spoken = new Map<number, ReplyFile>();
  if ('problem' in speech) {
    deps.log.warn('assistant answers sent as text', { ticketId: ticket.id, reason: speech.problem });
    return spoken;
  }
  for (const [i, reply] of replies.entries()) {
    const text = reply.text.trim();
    if (reply.media || !text) continue;
    try {
      const data = await synthesizeSpeech(speech, text, { baseUrl: deps.config.assistants.speechBaseUrl, signal });
      const stored = await saveTicketMedia(deps.config.mediaDir, ticket.companyId, ticket.id, { data, fileName: 'voice.ogg', mimeType: 'audio/ogg; codecs=opus', mediaType: 'audio', kind: 'audio' });
      spoken.set(i, { ...stored, spoken: text });
    } catch (err) {
      deps.log.warn('assistant answer sent as text', { ticketId: ticket.id, voice: speech.voice, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return spoken;
}
