import { z } from 'zod';
import { idSchema, namedRefSchema, queryBool, timestampSchema } from './common.ts';
import { phoneNumberSchema } from './contact.ts';
import { AppError } from '../errors.ts';

// Messages (spec/02 §3, §7; spec/03 §5 upload limits): the list query, the JSON body of
// POST /messages/{ticketId}, the upload rules the server enforces and the web checks early, and the
// message every client reads (`messageSchema`: REST and message/<ticketId>/<id> of the client view).

export const MESSAGE_MEDIA_TYPES = ['image', 'audio', 'video', 'application', 'locationMessage', 'vcard', 'contactMessage', 'call_log'] as const;
export type MessageMediaType = (typeof MESSAGE_MEDIA_TYPES)[number];

/** Messages per page of GET /messages/{ticketId}. */
export const MESSAGES_PAGE_SIZE = 20;

export const messageListQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});

/** A quick answer chosen with "/" whose attachment goes too (spec/02 §2.5): the server sends its file, the body as typed. */
const quickMessageIdSchema = z.preprocess((v) => (v === '' || v === null ? undefined : v), idSchema.optional());

const quotedMsgSchema = z.preprocess(
  (v) => (v === '' || v === null ? undefined : typeof v === 'object' && v !== null && 'id' in v ? (v as { id: unknown }).id : v),
  idSchema.optional(),
);

/** POST /messages/{ticketId} as JSON. `fromMe`, `read` and `mediaUrl` are accepted for the spec's shape; the server decides them. */
export const messageCreateSchema = z.object({
  body: z.string().max(65_536).optional().default(''),
  quotedMsg: quotedMsgSchema,
  fromMe: z.boolean().optional(),
  read: z.union([z.boolean(), z.literal(0), z.literal(1)]).optional(),
  mediaUrl: z.string().max(2000).nullable().optional(),
  /** The sign-message switch: prefix the body with the sender's name in bold. */
  signMessage: z.union([z.boolean(), z.enum(['true', 'false'])]).optional().transform((v) => v === true || v === 'true'),
  quickMessageId: quickMessageIdSchema,
});
export type MessageCreateInput = z.infer<typeof messageCreateSchema>;

/** The multipart fields besides `medias`. */
export const messageMultipartSchema = z.object({
  body: z.string().max(65_536).optional().default(''),
  quotedMsg: quotedMsgSchema,
  signMessage: queryBool.optional().default(false),
  quickMessageId: quickMessageIdSchema,
});

/** Upload kinds: allowed extensions, MIME types and the byte cap of each (spec/03 §5; documents are ours). */
export const UPLOAD_RULES = {
  image: { extensions: ['png', 'jpg', 'jpeg'], mimeTypes: ['image/png', 'image/jpeg', 'image/jpg'], maxBytes: 2 * 1024 * 1024 },
  // webm/opus: what Chromium's MediaRecorder records (the web's voice notes).
  audio: { extensions: ['ogg', 'mp3', 'opus', 'mpeg', 'webm'], mimeTypes: ['audio/ogg', 'audio/mpeg', 'audio/mp3', 'audio/opus', 'audio/webm'], maxBytes: 5 * 1024 * 1024 },
  video: { extensions: ['mp4'], mimeTypes: ['video/mp4'], maxBytes: 20 * 1024 * 1024 },
  document: {
    extensions: ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'txt', 'csv', 'zip'],
    mimeTypes: [
      'application/pdf', 'application/msword', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-excel', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.ms-powerpoint', 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      'application/vnd.oasis.opendocument.text', 'application/vnd.oasis.opendocument.spreadsheet',
      'text/plain', 'text/csv', 'application/zip', 'application/x-zip-compressed',
    ],
    maxBytes: 10 * 1024 * 1024,
  },
} as const;
export type UploadKind = keyof typeof UPLOAD_RULES;

export type UploadCandidate = { fileName: string; mimeType: string; size: number };

/** A file name's extension, lower case, without the dot ('' when it has none). */
export const extensionOf = (fileName: string): string => {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
};

/**
 * Which upload kind a file is, refusing what is not allowed (ERR_UNSUPPORTED_MEDIA_TYPE, 415) or
 * too big (ERR_PAYLOAD_TOO_LARGE, 413): the server's rule, and the web's check before it sends.
 */
export function classifyUpload(file: UploadCandidate): { kind: UploadKind; ext: string } {
  const ext = extensionOf(file.fileName);
  const mime = file.mimeType.split(';')[0]!.trim().toLowerCase();
  const kind = (Object.keys(UPLOAD_RULES) as UploadKind[]).find((k) => (UPLOAD_RULES[k].extensions as readonly string[]).includes(ext));
  if (!kind) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', `Files of type .${ext || '?'} cannot be sent.`, { details: { fileName: file.fileName } });
  const rule = UPLOAD_RULES[kind];
  // A generic or missing MIME type is judged by the extension; a specific one must agree with it.
  const generic = mime === '' || mime === 'application/octet-stream';
  if (!generic && !(rule.mimeTypes as readonly string[]).includes(mime)) {
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', `${file.fileName}: ${mime} is not an accepted ${kind} type.`, { details: { fileName: file.fileName } });
  }
  if (file.size > rule.maxBytes) {
    throw new AppError('ERR_PAYLOAD_TOO_LARGE', `${file.fileName} is too big: ${kind} files may have at most ${rule.maxBytes / 1024 / 1024} MB.`, {
      details: { fileName: file.fileName, maxBytes: rule.maxBytes },
    });
  }
  return { kind, ext };
}

/** At most this many files in one POST. */
export const MAX_MEDIAS_PER_MESSAGE = 10;

export const MESSAGE_SEND_STATUSES = ['queued', 'sent', 'failed'] as const;
export type MessageSendStatus = (typeof MESSAGE_SEND_STATUSES)[number];

const mediaTypeSchema = z.string().nullable().describe(`One of ${MESSAGE_MEDIA_TYPES.join(', ')}; null for a text message.`);
const mediaUrlSchema = z.string().nullable().describe('Served by GET /media/... with the ticket\'s access rules; null without media.');

/** The message a reply quotes, as the bubble shows it. */
export const quotedMessageSchema = z.object({
  id: z.number().int().positive(),
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: mediaTypeSchema,
  mediaUrl: mediaUrlSchema,
  isDeleted: z.boolean(),
});
export type QuotedMessage = z.infer<typeof quotedMessageSchema>;

/** One message as the server sends it: the pages of GET /messages/{ticketId}, POST answers, message/<ticketId>/<id> in the client view. */
export const messageSchema = z.object({
  id: z.number().int().describe('Positive once stored; negative only on the optimistic copy a client shows before the server confirms its send.'),
  wid: z.string().describe('The WhatsApp message id; `pending:…` until the network names an outgoing message.'),
  ticketId: z.number().int().positive(),
  contactId: z.number().int().positive().nullable(),
  contact: namedRefSchema.nullable().describe('The contact of the conversation (in a group, the participant who wrote).'),
  body: z.string().describe('A location is pipe-separated: image, link, optional description.'),
  mediaType: mediaTypeSchema,
  mediaUrl: mediaUrlSchema,
  fileName: z.string().nullable().optional().describe('The attachment\'s own name ("report.pdf"), as sent or received; the stored file has a generated one.'),
  fromMe: z.boolean(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  ack: z.number().int().min(0).max(5).describe('Delivery: 0 until the network took it, then 1 (sent) up to 5 as WhatsApp reports delivery, read and play; only moves forward.'),
  sendStatus: z
    .enum(MESSAGE_SEND_STATUSES)
    .nullable()
    .describe('Outgoing messages (DESIGN §12): `queued` until the network took it, `sent`, or `failed` with the catalogue code in sendError (the chat offers to send it again); null for inbound ones.'),
  sendError: z.string().nullable().describe('The catalogue code of a failed send.'),
  read: z.boolean(),
  quotedMsgId: z.number().int().positive().nullable(),
  quotedMsg: quotedMessageSchema.nullable(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  version: z.number().int().nonnegative().describe('Row version, bumped on every write (sync row versioning); 0 on an optimistic copy.'),
});
export type Message = z.infer<typeof messageSchema>;

export type MessagePage = { messages: Message[]; hasMore: boolean };

export const messageKey = (ticketId: number, id: number) => `message/${ticketId}/${id}`;

/**
 * POST /api/messages/send (the external API, a connection's token): the number to write to and the
 * text; as multipart/form-data the file(s) go in `medias` and the text, if any, is their caption.
 */
export const externalMessageSchema = z.object({
  number: phoneNumberSchema.describe('The recipient with country code, digits only (e.g. 5511999990000)'),
  body: z.string().max(65_536).optional().default('').describe('The text, or the caption of the file'),
});
export type ExternalMessageInput = z.input<typeof externalMessageSchema>;
