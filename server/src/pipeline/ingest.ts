// The inbound pipeline: one message from the network → stored once, in the right ticket, then the
// automation chain. Rules chosen where the spec is silent are in README.md beside this file.
import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { InboundMessage } from '../channels/types.ts';
import type { AppDeps } from '../context.ts';
import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { Whatsapps } from '../db/schema.ts';
import { findOrCreateContact, peerKey, type ContactRow } from '../modules/contacts/queries.ts';
import { previewOf } from '../modules/messages/dto.ts';
import { removeMediaFile, saveTicketMedia, type StoredMedia } from '../modules/media/storage.ts';
import type { TicketRow } from '../modules/tickets/dto.ts';
import { announceTicketChange } from '../modules/tickets/events.ts';
import { startTracking } from '../modules/ticket-tracking/service.ts';
import { runAutomation } from './automation.ts';
import { captureRating, dropRatingWait, parseRating } from './rating.ts';
import { loadConnectionContext } from './connection-context.ts';
import { runGrouped } from './group-commit.ts';
import { insertMessageRow, insertPendingTicket, selectContactTickets, selectMessageByWid, touchTicket, type MessageValues } from './queries.ts';

export type ConnectionRow = Selectable<Whatsapps>;

export type IngestResult =
  | { status: 'stored'; messageId: number; ticketId: number; contactId: number; ticketCreated: boolean }
  | { status: 'duplicate' | 'ignored'; reason?: string };

/** Thrown inside the transaction to roll back everything when the message turned out to be stored already. */
class Duplicate extends Error {}

export async function ingest(deps: AppDeps, connection: { id: number; companyId: number }, msg: InboundMessage): Promise<IngestResult> {
  const key = peerKey(msg.from);
  if (!key) return { status: 'ignored', reason: 'no sender' };
  return deps.contactLocks.run(`${connection.companyId}:${key}`, () => ingestLocked(deps, connection, msg));
}

async function ingestLocked(deps: AppDeps, ref: { id: number; companyId: number }, msg: InboundMessage): Promise<IngestResult> {
  const context = await loadConnectionContext(deps, ref);
  if (!context) return { status: 'ignored', reason: 'unknown connection' };
  const { connection, settings } = context;
  if (msg.from.isGroup && settings.CheckMsgIsGroup === 'enabled') return { status: 'ignored', reason: 'group messages are ignored' };
  // Files are written before the insert can tell a redelivery: look first so none is written twice.
  // Text messages rely on the insert alone (on conflict do nothing, then roll back).
  if (msg.media) {
    const seen = await selectMessageByWid(deps.db, { companyId: ref.companyId, connectionId: ref.id, wid: msg.id });
    if (seen.rows.length > 0) return { status: 'duplicate' };
  }

  const rated = msg.fromMe ? undefined : parseRating(msg.body);
  let media: StoredMedia | undefined;
  let stored: { messageId: number; ticket: TicketRow; contact: ContactRow; created: boolean; ratingTicket?: TicketRow };
  try {
    stored = await runGrouped(deps, ref.companyId, async (trx) => {
      const contact = await findOrCreateContact(trx, ref.companyId, msg.from, connection.id);
      const { active, waiting } = await findContactTickets(trx, ref.companyId, contact.id, connection.id);
      let ticket: TicketRow;
      let created = false;
      if (waiting && !msg.fromMe && rated !== undefined) ticket = waiting;
      else ({ ticket, created } = active ? { ticket: active, created: false } : await createTicket(trx, connection, contact));
      if (msg.media) media = await saveInboundMedia(deps, ticket, msg);
      const messageId = await insertMessage(trx, connection, ticket, contact, msg, media);
      const counts = ticket !== waiting && !msg.fromMe;
      const touched = await touchTicket(trx, {
        companyId: ref.companyId,
        ticketId: ticket.id,
        lastMessage: previewOf(bodyOf(msg), mediaTypeOf(msg), msg.media?.fileName),
        now: new Date().toISOString(),
        unread: counts ? 1 : 0,
      });
      const updated = touched.rows[0];
      if (!updated) throw new Error(`ticket ${ticket.id} vanished while storing a message`);
      const ratingTicket = msg.fromMe ? undefined : ticket === waiting ? updated : waiting;
      return { messageId, ticket: updated, contact, created, ratingTicket };
    });
  } catch (err) {
    if (media) await removeMediaFile(deps.config.mediaDir, media.relPath);
    if (err instanceof Duplicate) return { status: 'duplicate' };
    throw err;
  }
  announceTicketChange(deps, ref.companyId);
  const result: IngestResult = { status: 'stored', messageId: stored.messageId, ticketId: stored.ticket.id, contactId: stored.contact.id, ticketCreated: stored.created };
  if (msg.fromMe) return result;
  if (stored.ratingTicket && stored.ratingTicket.id === stored.ticket.id && rated !== undefined) {
    await captureRating(deps, stored.ticket, rated);
    return result;
  }
  // Any other reply ends the wait for a rating; the message went the normal way.
  if (stored.ratingTicket) await dropRatingWait(deps, stored.ratingTicket);
  await runAutomation(deps, { connection, queues: context.queues, ticket: stored.ticket, contact: stored.contact, settings, body: msg.body, messageId: stored.messageId, now: new Date() });
  return result;
}

/**
 * In one read: the contact's active (open or pending) ticket on this connection, and the closed
 * ticket waiting for a rating when it is the contact's latest there.
 */
async function findContactTickets(db: Database, companyId: number, contactId: number, connectionId: number): Promise<{ active?: TicketRow; waiting?: TicketRow }> {
  const { rows } = await selectContactTickets(db, { companyId, contactId, connectionId });
  // Sorted here: an ORDER BY id LIMIT lets SQLite walk the whole table by rowid instead of the
  // (company, contact, connection) index; the rows of one contact are few.
  rows.sort((a, b) => b.id - a.id);
  const latest = rows[0];
  return {
    active: rows.find((r) => r.status !== 'closed'),
    waiting: latest && latest.status === 'closed' && latest.awaitingRating === 1 ? latest : undefined,
  };
}

/** A new pending ticket; when another instance made one first (the unique active-ticket index), that one. */
async function createTicket(db: Database, connection: ConnectionRow, contact: ContactRow): Promise<{ ticket: TicketRow; created: boolean }> {
  const { rows } = await insertPendingTicket(db, {
    companyId: connection.companyId,
    uuid: randomUUID(),
    contactId: contact.id,
    connectionId: connection.id,
    isGroup: contact.isGroup,
    now: new Date().toISOString(),
  });
  const inserted = rows[0];
  if (!inserted) {
    const { active } = await findContactTickets(db, connection.companyId, contact.id, connection.id);
    if (active) return { ticket: active, created: false };
    throw new Error('ticket neither created nor found');
  }
  await startTracking(db, connection.companyId, inserted);
  return { ticket: inserted, created: true };
}

async function insertMessage(db: Database, connection: ConnectionRow, ticket: TicketRow, contact: ContactRow, msg: InboundMessage, media: StoredMedia | undefined): Promise<number> {
  const quoted = msg.quotedId ? (await selectMessageByWid(db, { companyId: connection.companyId, connectionId: connection.id, wid: msg.quotedId })).rows[0] : undefined;
  const values: MessageValues = {
    wid: msg.id,
    ticketId: ticket.id,
    contactId: contact.id,
    whatsappId: connection.id,
    body: bodyOf(msg),
    fromMe: msg.fromMe ? 1 : 0,
    read: msg.fromMe ? 1 : 0,
    ack: msg.fromMe ? 1 : 0,
    mediaType: mediaTypeOf(msg),
    mediaUrl: media?.relPath ?? null,
    quotedMsgId: quoted?.id ?? null,
    participant: msg.participant?.jid ?? msg.participant?.lid ?? null,
    data: media ? JSON.stringify({ fileName: media.fileName, mimeType: media.mimeType, size: media.size }) : null,
    createdAt: validTime(msg.timestamp),
  };
  try {
    const row = (await insertMessageRow(db, { companyId: connection.companyId, ...values })).rows[0];
    if (!row) throw new Duplicate();
    return row.id;
  } catch (err) {
    if (isUniqueViolation(err)) throw new Duplicate();
    throw err;
  }
}

const validTime = (ts: string) => {
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? new Date().toISOString() : d.toISOString();
};

/** The spec's mediaType names (spec/02 §3). */
export function mediaTypeOf(msg: InboundMessage): string | null {
  switch (msg.mediaType) {
    case undefined:
      return null;
    case 'document':
      return 'application';
    case 'sticker':
      return 'image';
    case 'location':
      return 'locationMessage';
    default:
      return msg.mediaType;
  }
}

/** A location body is pipe-separated: image, link, optional description (spec/02 §3). */
function bodyOf(msg: InboundMessage): string {
  if (msg.mediaType === 'location' && msg.location) {
    const { latitude, longitude, description } = msg.location;
    return `|https://maps.google.com/maps?q=${latitude}%2C${longitude}&z=17|${description ?? msg.body ?? ''}`;
  }
  if (msg.mediaType === 'vcard' && msg.vcard) return msg.vcard;
  return msg.body ?? '';
}

async function saveInboundMedia(deps: AppDeps, ticket: TicketRow, msg: InboundMessage): Promise<StoredMedia | undefined> {
  const file = msg.media;
  if (!file) return undefined;
  const kind = msg.mediaType === 'image' || msg.mediaType === 'sticker' ? 'image' : msg.mediaType === 'audio' ? 'audio' : msg.mediaType === 'video' ? 'video' : 'document';
  const mediaType = kind === 'document' ? 'application' : kind;
  return saveTicketMedia(deps.config.mediaDir, ticket.companyId, ticket.id, { data: file.data, fileName: file.fileName ?? `${msg.mediaType ?? 'file'}`, mimeType: file.mimeType, kind, mediaType });
}
