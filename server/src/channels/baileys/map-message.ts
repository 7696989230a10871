// Baileys' WAMessage → the platform's InboundMessage: text, extended text, media (downloaded),
// location, contact cards, the quoted id, and both identities of the sender (phone JID and LID).
import { getContentType, normalizeMessageContent, type WAMessage, type WAMessageUpdate, type proto } from '@whiskeysockets/baileys';
import type { InboundMessage, MediaType, MessageChange, Peer } from '../types.ts';

export type MediaDownloader = (message: WAMessage) => Promise<Buffer>;

const MEDIA: Partial<Record<keyof proto.IMessage, MediaType>> = {
  imageMessage: 'image',
  audioMessage: 'audio',
  videoMessage: 'video',
  documentMessage: 'document',
  stickerMessage: 'sticker',
};

const digits = (jid: string) => jid.split('@')[0]!.split(':')[0]!.replace(/\D/g, '');
const isLid = (jid?: string | null) => !!jid && jid.endsWith('@lid');
const isPn = (jid?: string | null) => !!jid && jid.endsWith('@s.whatsapp.net');

/** The phone JID and LID of a sender, whichever side of the key (main or alt) carries each. */
export function toPeer(main: string | null | undefined, alt: string | null | undefined, name?: string | null): Peer {
  const ids = [main, alt].filter((j): j is string => !!j).map((j) => j.replace(/:\d+@/, '@'));
  const jid = ids.find(isPn) ?? ids.find((j) => j.endsWith('@g.us'));
  const lid = ids.find(isLid);
  const peer: Peer = {};
  if (jid) peer.jid = jid;
  if (lid) peer.lid = lid;
  if (jid && isPn(jid)) peer.number = digits(jid);
  if (name) peer.name = name;
  if (jid?.endsWith('@g.us')) peer.isGroup = true;
  return peer;
}

function timestampOf(message: WAMessage): string {
  const raw = message.messageTimestamp;
  const seconds = typeof raw === 'number' ? raw : raw ? Number(raw.toString()) : 0;
  return new Date(seconds > 0 ? seconds * 1000 : Date.now()).toISOString();
}

/** Undefined for what is not a conversation message (status broadcasts, protocol and reaction stubs). */
export async function toInboundMessage(message: WAMessage, download: MediaDownloader): Promise<InboundMessage | undefined> {
  const key = message.key;
  if (!key.id || !key.remoteJid || key.remoteJid === 'status@broadcast') return undefined;
  const content = normalizeMessageContent(message.message);
  const type = getContentType(content);
  if (!content || !type || type === 'protocolMessage' || type === 'reactionMessage' || type === 'senderKeyDistributionMessage') return undefined;

  const from = toPeer(key.remoteJid, key.remoteJidAlt, key.fromMe ? undefined : message.pushName);
  const inbound: InboundMessage = { id: key.id, from, fromMe: !!key.fromMe, timestamp: timestampOf(message), body: '' };
  if (from.isGroup && key.participant) inbound.participant = toPeer(key.participant, key.participantAlt, message.pushName);
  const inner = content[type] as { contextInfo?: proto.IContextInfo | null } | string | null | undefined;
  const quotedId = typeof inner === 'object' ? inner?.contextInfo?.stanzaId : undefined;
  if (quotedId) inbound.quotedId = quotedId;

  if (type === 'conversation') inbound.body = content.conversation ?? '';
  else if (type === 'extendedTextMessage') inbound.body = content.extendedTextMessage?.text ?? '';
  else if (MEDIA[type]) {
    const media = content[type] as proto.Message.IImageMessage & proto.Message.IDocumentMessage;
    inbound.mediaType = MEDIA[type];
    inbound.body = media.caption ?? '';
    try {
      const data = await download(message);
      inbound.media = { data, mimeType: media.mimetype ?? 'application/octet-stream', ...(media.fileName ? { fileName: media.fileName } : {}) };
    } catch {
      // The message still arrives (with its caption); the pipeline shows the media as unavailable.
    }
  } else if (type === 'documentWithCaptionMessage') {
    const wrapped = { ...message, message: content.documentWithCaptionMessage?.message ?? null };
    return toInboundMessage(wrapped as WAMessage, download);
  } else if (type === 'locationMessage' || type === 'liveLocationMessage') {
    const loc = (content.locationMessage ?? content.liveLocationMessage)!;
    const parts = loc as { name?: string | null; address?: string | null; caption?: string | null };
    const description = [parts.name, parts.address, parts.caption].filter(Boolean).join(' - ');
    inbound.mediaType = 'location';
    inbound.location = { latitude: loc.degreesLatitude ?? 0, longitude: loc.degreesLongitude ?? 0, ...(description ? { description } : {}) };
    inbound.body = description;
  } else if (type === 'contactMessage' || type === 'contactsArrayMessage') {
    const cards = content.contactMessage ? [content.contactMessage] : (content.contactsArrayMessage?.contacts ?? []);
    inbound.mediaType = 'vcard';
    inbound.vcard = cards.map((c) => c.vcard ?? '').join('\n');
    inbound.body = cards.map((c) => c.displayName ?? '').join(', ');
  } else {
    // Buttons, lists, polls…: keep whatever text they carry rather than dropping the message.
    inbound.body = typeof inner === 'object' && inner && 'text' in inner ? String((inner as { text?: string }).text ?? '') : '';
  }
  return inbound;
}

/** WAMessageStubType.REVOKE: a message deleted for everyone (a const enum value, so written here). */
const STUB_REVOKE = 1;

/** The text a message carries: conversation, extended text, or a media caption. */
function textOf(message: proto.IMessage | null | undefined): string | undefined {
  const content = normalizeMessageContent(message);
  if (!content) return undefined;
  if (typeof content.conversation === 'string') return content.conversation;
  if (content.extendedTextMessage?.text != null) return content.extendedTextMessage.text;
  const type = getContentType(content);
  const inner = type ? (content[type] as { caption?: string | null } | null | undefined) : undefined;
  return typeof inner === 'object' && inner?.caption != null ? inner.caption : undefined;
}

/**
 * A messages.update that edits or revokes the message `id` (Baileys' process-message turns the
 * protocol messages MESSAGE_EDIT and REVOKE into these), else undefined: acks and other updates.
 */
export function toMessageChange(id: string, update: WAMessageUpdate['update']): MessageChange | undefined {
  const raw = update.messageTimestamp;
  const seconds = typeof raw === 'number' ? raw : raw ? Number(raw.toString()) : 0;
  const timestamp = new Date(seconds > 0 ? seconds * 1000 : Date.now()).toISOString();
  if (update.messageStubType === STUB_REVOKE && update.message === null) return { id, timestamp, kind: 'revoke' };
  const edited = update.message?.editedMessage?.message;
  if (!edited) return undefined;
  // The edit carries the new message itself, or (newer clients) a protocol message wrapping it.
  const body = textOf(edited.protocolMessage?.editedMessage ?? edited);
  return body === undefined ? undefined : { id, timestamp, kind: 'edit', body };
}
