// The message as every transport sends it (`messageSchema` in @zapdesk/sync, spec/02 §3): with its
// quoted message and sender contact. The REST routes and message/<ticketId>/<id> of the client view
// (view.ts) both answer with toMessageDtos.
import { MESSAGE_SEND_STATUSES, type Message, type MessageSendStatus, type QuotedMessage } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Messages } from '../../db/schema.ts';
import { prepare } from '../../db/prepared.ts';
import { mediaUrlOf } from '../media/storage.ts';

export type MessageRow = Selectable<Messages>;

/** Messages of the company by id, compiled once per count (the client view's values, quoted messages). */
export const messagesById = prepare((db, p: { companyId: number; ids: number[] }) =>
  db.selectFrom('messages').selectAll('messages').where('messages.companyId', '=', p.companyId).where('messages.id', 'in', p.ids),
  { padLists: true },
);
const contactNames = prepare((db, p: { companyId: number; ids: number[] }) =>
  db.selectFrom('contacts').select(['contacts.id', 'contacts.name']).where('contacts.companyId', '=', p.companyId).where('contacts.id', 'in', p.ids),
  { padLists: true },
);

const toQuoted = (r: MessageRow): QuotedMessage => ({
  id: r.id,
  body: r.body,
  fromMe: r.fromMe === 1,
  mediaType: r.mediaType,
  mediaUrl: mediaUrlOf(r.mediaUrl),
  isDeleted: r.isDeleted === 1,
});

export async function toMessageDtos(db: Database, companyId: number, rows: MessageRow[]): Promise<Message[]> {
  if (rows.length === 0) return [];
  const quotedIds = [...new Set(rows.map((r) => r.quotedMsgId).filter((id): id is number => id !== null))];
  const contactIds = [...new Set(rows.map((r) => r.contactId).filter((id): id is number => id !== null))];
  const [quoted, contacts] = await Promise.all([
    quotedIds.length ? messagesById(db, { companyId, ids: quotedIds }).then((r) => r.rows) : [],
    contactIds.length ? contactNames(db, { companyId, ids: contactIds }).then((r) => r.rows) : [],
  ]);
  const quotedMap = new Map(quoted.map((q) => [q.id, toQuoted(q)]));
  const contactMap = new Map(contacts.map((c) => [c.id, c]));
  return rows.map((r) => ({
    id: r.id,
    wid: r.wid,
    ticketId: r.ticketId,
    contactId: r.contactId,
    contact: (r.contactId !== null && contactMap.get(r.contactId)) || null,
    body: r.body,
    mediaType: r.mediaType,
    mediaUrl: mediaUrlOf(r.mediaUrl),
    fileName: r.mediaUrl ? fileNameOf(r.data) : null,
    fromMe: r.fromMe === 1,
    isDeleted: r.isDeleted === 1,
    isEdited: r.isEdited === 1,
    ack: r.ack,
    sendStatus: toSendStatus(r.sendStatus),
    sendError: r.sendError,
    read: r.read === 1,
    quotedMsgId: r.quotedMsgId,
    quotedMsg: (r.quotedMsgId !== null && quotedMap.get(r.quotedMsgId)) || null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    version: r.version,
  }));
}

/** The attachment's own name, kept in the row's data (JSON) when it was sent or received. */
function fileNameOf(data: string | null): string | null {
  if (!data) return null;
  try {
    const name = (JSON.parse(data) as { fileName?: unknown }).fileName;
    return typeof name === 'string' && name !== '' ? name : null;
  } catch {
    return null;
  }
}

const toSendStatus = (s: string | null): MessageSendStatus | null => (MESSAGE_SEND_STATUSES as readonly string[]).includes(s ?? '') ? (s as MessageSendStatus) : null;

/** The ticket's list line for a message: its text, else what kind of media it is. */
export function previewOf(body: string, mediaType: string | null, fileName?: string): string {
  const text = body.trim();
  if (text) return text.slice(0, 255);
  if (fileName) return fileName.slice(0, 255);
  return mediaType ? `[${mediaType}]` : '';
}
