// Storing inbound messages: contact, ticket, message row and ticket counters, for several deliveries
// in one transaction (README.md, "Throughput"). Step by step for the whole batch: which messages
// are stored already (one lookup), contacts and tickets (resolve.ts, with lookups.ts reading them
// for the batch at once), files, then every message with one multi-row insert, each ticket's
// counters, and what the automation after the commit will ask (phrase campaigns, confirmations).
import { sql, type Selectable } from 'kysely';
import { emit, ticketEvent, ticketOrder } from '../events/emit.ts';
import type { InboundMessage } from '../channels/types.ts';
import type { Database } from '../db/database.ts';
import type { Whatsapps } from '../db/schema.ts';
import type { Tx } from '../db/write.ts';
import type { DomainEvent } from '../events/types.ts';
import { peerNumber, type ContactRow } from '../modules/contacts/queries.ts';
import { previewOf } from '../modules/messages/dto.ts';
import { removeMediaFile, saveTicketMedia, type StoredMedia } from '../modules/media/storage.ts';
import type { TicketRow } from '../modules/tickets/dto.ts';
import { mayStartPhraseFlow } from '../flows-runtime/phrase-hint.ts';
import { findAwaitingConfirmations, type AwaitingConfirmation } from '../modules/campaigns/dispatch/replies.ts';
import { lookUpBatch, NO_LOOKUPS } from './lookups.ts';
import { insertMessageRows, selectMessageByWid, selectStoredWids, touchTicket, touchTicketRows, type MessageValues } from './queries.ts';
import { groupBy, resolveContacts, resolveTickets, type Draft } from './resolve.ts';
import { columnList, unnestRows, type Column } from '../db/unnest.ts';

export type ConnectionRow = Selectable<Whatsapps>;

export type Delivery = {
  connection: ConnectionRow;
  msg: InboundMessage;
  /** The reply's rating (1-3) when it reads as one. */
  rated: number | undefined;
  /** The file written for this delivery, so the caller can remove it if the transaction fails. */
  media?: StoredMedia;
};

export type Stored = {
  messageId: number;
  fromMe: boolean;
  ticket: TicketRow;
  contact: ContactRow;
  created: boolean;
  ratingTicket?: TicketRow;
  /** A running campaign asked this sender to confirm on this connection (read with the batch). */
  awaitingConfirmation?: AwaitingConfirmation;
  /** The company has an active phrase campaign, which a message could start (read with the batch). */
  phraseCampaigns: boolean;
};

/** A message the insert refused although it was not stored when the batch began (a concurrent delivery elsewhere). */
export class InsertConflict extends Error {}

type Plan = { delivery: Delivery; contact: ContactRow; ticket: TicketRow; waiting?: TicketRow; created: boolean; values: MessageValues };

/**
 * Stores the deliveries in the caller's transaction; one outcome each, in order: what was stored,
 * or 'duplicate' when the message is stored already (or twice in the batch). Any failure throws
 * with nothing kept on disk, and the caller rolls the transaction back.
 */
export async function storeDeliveries(tx: Tx, deliveries: Delivery[]): Promise<(Stored | 'duplicate')[]> {
  const trx = tx.db;
  // Reads first, then the writes. On PostgreSQL batches of one company on several instances run side
  // by side (the sync counters they bump are locked only at commit, in one order: migration
  // 20261129T150000). What another instance may write between these reads and the writes is settled
  // by the writes themselves (a contact or ticket insert that conflicts yields to the row that
  // exists, resolve.ts); a connection's messages come only through its holder, whose batches of a
  // company take turns (group-commit.ts).
  const seen = await findStoredWids(trx, deliveries);
  const fresh = deliveries.filter((d) => !seen.has(widKey(d.connection.companyId, d.connection.id, d.msg.id)));
  // Redeliveries only: nothing to write.
  if (fresh.length === 0) return deliveries.map(() => 'duplicate');
  const lookups = fresh.length > 1 ? await lookUpBatch(trx, fresh.map((d) => ({ companyId: d.connection.companyId, peer: d.msg.from }))) : NO_LOOKUPS;
  const hints = await readAutomationHints(tx, fresh);
  const drafts: Draft[] = [];
  const slots: (Draft | 'duplicate')[] = [];
  for (const d of deliveries) {
    const key = widKey(d.connection.companyId, d.connection.id, d.msg.id);
    if (seen.has(key)) {
      slots.push('duplicate');
      continue;
    }
    seen.add(key);
    const draft: Draft = { delivery: d, created: false };
    drafts.push(draft);
    slots.push(draft);
  }
  try {
    const newContacts = await resolveContacts(trx, drafts, lookups);
    await resolveTickets(trx, drafts, lookups, newContacts);
    const plans = new Map<Draft, Plan>();
    for (const draft of drafts) plans.set(draft, await planMessage(tx, draft));
    const ids = await insertMessages(tx, [...plans.values()]);
    for (const plan of plans.values()) tx.effects.poke(plan.delivery.connection.companyId);
    const outcomes = await touchTickets(
      tx,
      slots.map((slot) => (slot === 'duplicate' ? slot : plans.get(slot)!)),
      ids,
    );
    await emit(tx, inboundEvents(outcomes, newContacts));
    await applyAutomationHints(tx, hints, outcomes);
    return outcomes;
  } catch (err) {
    await Promise.all(deliveries.map((d) => d.media && removeMediaFile(tx.config.mediaDir, d.media.relPath)));
    for (const d of deliveries) delete d.media;
    throw err;
  }
}

const widKey = (companyId: number, connectionId: number | null, wid: string) => `${companyId}:${connectionId}:${wid}`;

/** The batch's messages already stored: one lookup per connection on the unique (company, connection, wid) index. */
async function findStoredWids(db: Database, deliveries: Delivery[]): Promise<Set<string>> {
  const seen = new Set<string>();
  if (deliveries.length === 1) {
    const { connection, msg } = deliveries[0]!;
    const { rows } = await selectMessageByWid(db, { companyId: connection.companyId, connectionId: connection.id, wid: msg.id });
    if (rows.length > 0) seen.add(widKey(connection.companyId, connection.id, msg.id));
    return seen;
  }
  const byConnection = groupBy(deliveries, (d) => d.connection);
  for (const [connection, group] of byConnection) {
    const { rows } = await selectStoredWids(db, { companyId: connection.companyId, connectionId: connection.id, wids: group.map((d) => d.msg.id) });
    for (const r of rows) seen.add(widKey(connection.companyId, connection.id, r.wid));
  }
  return seen;
}

/** The file if any, and the message row to insert. */
async function planMessage(tx: Tx, draft: Draft): Promise<Plan> {
  const db = tx.db;
  const { delivery, contact, ticket, waiting, created } = draft;
  if (!contact || !ticket) throw new Error('a delivery of the batch has no contact or ticket');
  const { connection, msg } = delivery;
  if (msg.media) delivery.media = await saveInboundMedia(tx.config.mediaDir, ticket, msg);
  const quoted = msg.quotedId ? (await selectMessageByWid(db, { companyId: connection.companyId, connectionId: connection.id, wid: msg.quotedId })).rows[0] : undefined;
  const media = delivery.media;
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
  return { delivery, contact, ticket, waiting, created, values };
}

/** One insert per company; the new ids by (company, connection, wid). Throws InsertConflict when a row was refused. */
async function insertMessages(tx: Tx, plans: Plan[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const [companyId, group] of groupBy(plans, (p) => p.delivery.connection.companyId)) {
    const values = group.map((p) => p.values);
    const rows =
      tx.dialect === 'postgres'
        ? (
            await sql<{ id: number; whatsappId: number | null; wid: string }>`
              insert into messages (${columnList(MESSAGE_COLUMNS)}, company_id)
              select ${columnList(MESSAGE_COLUMNS, 'v.')}, ${companyId} from ${unnestRows(values, MESSAGE_COLUMNS, 'v')}
              on conflict do nothing returning id, whatsapp_id as "whatsappId", wid`.execute(tx.db)
          ).rows
        : (await insertMessageRows(tx.db, { companyId, rows: values })).rows;
    for (const r of rows) ids.set(widKey(companyId, r.whatsappId, r.wid), r.id);
    if (rows.length < group.length) throw new InsertConflict('a message of the batch was stored meanwhile');
  }
  return ids;
}

/** A message row's columns (MessageValues) for PostgreSQL's insert by column arrays (db/unnest.ts). */
const MESSAGE_COLUMNS: Column<MessageValues>[] = [
  ['wid', 'text', (v) => v.wid],
  ['ticket_id', 'integer', (v) => v.ticketId],
  ['contact_id', 'integer', (v) => v.contactId],
  ['whatsapp_id', 'integer', (v) => v.whatsappId],
  ['body', 'text', (v) => v.body],
  ['from_me', 'integer', (v) => v.fromMe],
  ['read', 'integer', (v) => v.read],
  ['ack', 'integer', (v) => v.ack],
  ['media_type', 'text', (v) => v.mediaType],
  ['media_url', 'text', (v) => v.mediaUrl],
  ['quoted_msg_id', 'integer', (v) => v.quotedMsgId],
  ['participant', 'text', (v) => v.participant],
  ['data', 'text', (v) => v.data],
  ['created_at', 'timestamptz', (v) => v.createdAt],
];

/**
 * Preview, clocks, unread count and version of each message's ticket. The row is read earlier in
 * this transaction; what the update changes is computed here rather than returned (RETURNING *
 * costs SQLite as much as the update), folding in earlier messages of the batch to the same ticket.
 * One statement per company for the whole batch (touchTicketsOnce): a statement per message cost
 * PostgreSQL a round trip each, with the tickets' row locks held meanwhile.
 * On PostgreSQL a concurrent transition may have moved the ticket meanwhile: the automation chain
 * re-checks the ticket's state with conditional updates, so a stale copy only makes it stay silent.
 */
async function touchTickets(tx: Tx, plans: (Plan | 'duplicate')[], ids: Map<string, number>): Promise<(Stored | 'duplicate')[]> {
  const current = new Map<number, TicketRow>();
  // Per ticket, what the batch adds: the last preview, the unread messages, the versions.
  const touched = new Map<number, Touch>();
  const outcomes: (Stored | 'duplicate')[] = [];
  const now = new Date().toISOString();
  for (const plan of plans) {
    if (plan === 'duplicate') {
      outcomes.push(plan);
      continue;
    }
    const { delivery, contact, waiting, created, values } = plan;
    const { connection, msg } = delivery;
    const before = current.get(plan.ticket.id) ?? plan.ticket;
    const unread = plan.ticket !== waiting && !msg.fromMe ? 1 : 0;
    const lastMessage = previewOf(values.body, values.mediaType, msg.media?.fileName);
    const sum = touched.get(before.id);
    if (sum) Object.assign(sum, { lastMessage, unread: sum.unread + unread, versions: sum.versions + 1 });
    else touched.set(before.id, { companyId: connection.companyId, ticketId: before.id, lastMessage, unread, versions: 1 });
    const ticket: TicketRow = { ...before, lastMessage, lastInteractionAt: now, updatedAt: now, unreadMessages: before.unreadMessages + unread, version: before.version + 1 };
    current.set(ticket.id, ticket);
    const messageId = ids.get(widKey(connection.companyId, connection.id, msg.id));
    if (messageId === undefined) throw new InsertConflict('a message of the batch has no id');
    const ratingTicket = msg.fromMe ? undefined : plan.ticket === waiting ? ticket : waiting;
    outcomes.push({ messageId, fromMe: msg.fromMe, ticket, contact, created, phraseCampaigns: false, ...(ratingTicket ? { ratingTicket } : {}) });
  }
  for (const [companyId, group] of groupBy([...touched.values()], (t) => t.companyId)) await touchTicketsOnce(tx, companyId, group, now);
  return outcomes;
}

type Touch = { companyId: number; ticketId: number; lastMessage: string; unread: number; versions: number };

/**
 * The tickets' previews, clocks, unread counts and versions, as one statement: SQLite with a CASE
 * per column (db/value-by-id.ts), PostgreSQL joining the values as column arrays (db/unnest.ts).
 */
async function touchTicketsOnce(tx: Tx, companyId: number, touches: Touch[], now: string): Promise<void> {
  const db = tx.db;
  if (touches.length === 1) {
    const [t] = touches as [Touch];
    const { numAffectedRows } = await touchTicket(db, { companyId, ticketId: t.ticketId, lastMessage: t.lastMessage, now, unread: t.unread, versions: t.versions });
    if (numAffectedRows === 0n) throw new Error(`ticket ${t.ticketId} vanished while storing a message`);
    return;
  }
  let updated: bigint | undefined;
  if (tx.dialect === 'postgres') {
    const result = await sql`
      update tickets set last_message = v.last_message, last_interaction_at = ${now}, updated_at = ${now},
        unread_messages = tickets.unread_messages + v.unread, version = tickets.version + v.versions
      from ${unnestRows(touches, TOUCH_COLUMNS, 'v')}
      where tickets.company_id = ${companyId} and tickets.id = v.id`.execute(db);
    updated = result.numAffectedRows;
  } else {
    const result = await touchTicketRows(db, {
      companyId,
      ticketIds: touches.map((t) => t.ticketId),
      lastMessages: touches.map((t) => t.lastMessage),
      unread: touches.map((t) => t.unread),
      versions: touches.map((t) => t.versions),
      now,
    });
    updated = result.numAffectedRows;
  }
  if (Number(updated) !== touches.length) throw new Error('a ticket vanished while storing messages');
}

const TOUCH_COLUMNS: Column<Touch>[] = [
  ['id', 'integer', (t) => t.ticketId],
  ['last_message', 'text', (t) => t.lastMessage],
  ['unread', 'integer', (t) => t.unread],
  ['versions', 'integer', (t) => t.versions],
];

type AutomationHints = { phraseCampaigns: Map<number, boolean>; awaiting: Map<number, Map<string, AwaitingConfirmation>>; asked: Set<string> };

/**
 * What the automation after the commit asks of each customer's message, read for the whole batch
 * before the writes (per company: whether it has an active phrase campaign, and which senders a
 * running campaign asked to confirm) rather than by a read per message after it.
 */
async function readAutomationHints(tx: Tx, deliveries: Delivery[]): Promise<AutomationHints> {
  const hints: AutomationHints = { phraseCampaigns: new Map(), awaiting: new Map(), asked: new Set() };
  const inbound = deliveries.filter((d) => !d.msg.fromMe);
  for (const [companyId, group] of groupBy(inbound, (d) => d.connection.companyId)) {
    hints.phraseCampaigns.set(companyId, await mayStartPhraseFlow(tx, companyId));
    const asked = group.flatMap((d) => {
      const number = peerNumber(d.msg.from);
      return number ? [{ number, connectionId: d.connection.id }] : [];
    });
    for (const a of asked) hints.asked.add(`${companyId}:${a.connectionId}:${a.number}`);
    hints.awaiting.set(companyId, await findAwaitingConfirmations(tx.db, companyId, asked));
  }
  return hints;
}

/** Sets the hints on each customer's message; a sender known only by another address (a LID) is read now. */
async function applyAutomationHints(tx: Tx, hints: AutomationHints, outcomes: (Stored | 'duplicate')[]): Promise<void> {
  const inbound = outcomes.filter((o): o is Stored => o !== 'duplicate' && !o.fromMe);
  for (const [companyId, group] of groupBy(inbound, (o) => o.ticket.companyId)) {
    const unasked = group.flatMap((o) => (o.ticket.whatsappId === null || hints.asked.has(`${companyId}:${o.ticket.whatsappId}:${o.contact.number}`) ? [] : [{ number: o.contact.number, connectionId: o.ticket.whatsappId }]));
    const late = unasked.length ? await findAwaitingConfirmations(tx.db, companyId, unasked) : undefined;
    const phraseCampaigns = hints.phraseCampaigns.get(companyId) ?? (await mayStartPhraseFlow(tx, companyId));
    for (const o of group) {
      o.phraseCampaigns = phraseCampaigns;
      const key = `${o.ticket.whatsappId}:${o.contact.number}`;
      const waiting = hints.awaiting.get(companyId)?.get(key) ?? late?.get(key);
      if (waiting) o.awaitingConfirmation = waiting;
    }
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

async function saveInboundMedia(mediaDir: string, ticket: TicketRow, msg: InboundMessage): Promise<StoredMedia | undefined> {
  const file = msg.media;
  if (!file) return undefined;
  const kind = msg.mediaType === 'image' || msg.mediaType === 'sticker' ? 'image' : msg.mediaType === 'audio' ? 'audio' : msg.mediaType === 'video' ? 'video' : 'document';
  const mediaType = kind === 'document' ? 'application' : kind;
  return saveTicketMedia(mediaDir, ticket.companyId, ticket.id, { data: file.data, fileName: file.fileName ?? `${msg.mediaType ?? 'file'}`, mimeType: file.mimeType, kind, mediaType });
}

/** What the stored deliveries announce (events/emit.ts): a new contact, a new or touched ticket, the message. */
function inboundEvents(outcomes: (Stored | 'duplicate')[], newContacts: Set<number>): DomainEvent[] {
  const events: DomainEvent[] = [];
  for (const o of outcomes) {
    if (o === 'duplicate') continue;
    const companyId = o.ticket.companyId;
    if (newContacts.delete(o.contact.id)) events.push({ companyId, entity: 'contact', action: 'create', id: o.contact.id, hooks: ['contact.created'], orderKey: `contact:${o.contact.id}` });
    events.push(o.created ? ticketEvent('create', o.ticket) : { companyId, entity: 'ticket', action: 'update', id: o.ticket.id });
    events.push({ companyId, entity: 'appMessage', action: 'create', id: o.messageId, hooks: [o.fromMe ? 'message.sent' : 'message.received'], orderKey: ticketOrder(o.ticket.id) });
  }
  return events;
}
