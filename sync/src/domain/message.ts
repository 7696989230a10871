import { z } from 'zod';
import { idSchema, queryBool } from './common.ts';

// Messages (spec/02 §3, §7; spec/03 §5 upload limits): the list query, the JSON body of
// POST /messages/{ticketId}, the upload rules the server enforces and the web checks early.

export const MESSAGE_MEDIA_TYPES = ['image', 'audio', 'video', 'application', 'locationMessage', 'vcard', 'contactMessage', 'call_log'] as const;
export type MessageMediaType = (typeof MESSAGE_MEDIA_TYPES)[number];

/** Messages per page of GET /messages/{ticketId}. */
export const MESSAGES_PAGE_SIZE = 20;

export const messageListQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});

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
});
export type MessageCreateInput = z.infer<typeof messageCreateSchema>;

/** The multipart fields besides `medias`. */
export const messageMultipartSchema = z.object({
  body: z.string().max(65_536).optional().default(''),
  quotedMsg: quotedMsgSchema,
  signMessage: queryBool.optional().default(false),
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

/** At most this many files in one POST. */
export const MAX_MEDIAS_PER_MESSAGE = 10;

export type QuotedMessage = { id: number; body: string; fromMe: boolean; mediaType: string | null; mediaUrl: string | null; isDeleted: boolean };

export const MESSAGE_SEND_STATUSES = ['queued', 'sent', 'failed'] as const;
export type MessageSendStatus = (typeof MESSAGE_SEND_STATUSES)[number];

export type Message = {
  id: number;
  wid: string;
  ticketId: number;
  contactId: number | null;
  contact: { id: number; name: string } | null;
  body: string;
  mediaType: string | null;
  /** Served by GET /media/... with the ticket's access rules; null without media. */
  mediaUrl: string | null;
  fromMe: boolean;
  isDeleted: boolean;
  isEdited: boolean;
  ack: number;
  /**
   * Outgoing messages (DESIGN §12): `queued` until the network took it (clock), `sent`, or `failed`
   * with the catalogue code in `sendError` (the chat offers to send it again); null for inbound ones.
   */
  sendStatus: MessageSendStatus | null;
  sendError: string | null;
  read: boolean;
  quotedMsgId: number | null;
  quotedMsg: QuotedMessage | null;
  createdAt: string;
  updatedAt: string;
  version: number;
};

export type MessagePage = { messages: Message[]; hasMore: boolean };

export const messageKey = (ticketId: number, id: number) => `message/${ticketId}/${id}`;
