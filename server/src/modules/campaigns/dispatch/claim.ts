// One send of a connection's campaigns (DESIGN §12, §13): pick the oldest pending recipient of the
// connection's running campaigns, judge opt-out, ask the pacing whether a send is due, and then, in
// ONE write: advance the connection's pacing (conditional on the state just read), mark the
// recipient `queued` (conditional on `pending`) and queue its message rows in the outbox. Either all
// of it commits or none: a crash before the commit sent nothing and left the row pending; a second
// instance that read the same pacing state loses the conditional update and rolls back; the outbox
// sends only what committed, once. Files are read before the write; nothing here calls the network.
//
// Tickets: the message goes through the contact's open or pending ticket on the connection, else a
// new closed one (tickets/notification.ts), so a campaign never fills the agents' pending list; the
// contact's reply opens a pending ticket through the inbound pipeline as usual. With the setting
// ticketOnReplyOnly off, a new ticket is pending at once instead.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { randomInt, randomUUID } from 'node:crypto';
import { AppError, buildTemplateVars, CAMPAIGN_OPT_OUT_WORDS, renderTemplate, type CampaignSettings } from '@zapdesk/sync';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { AppDeps } from '../../../context.ts';
import type { CampaignShippings } from '../../../db/schema.ts';
import { tenant } from '../../../db/tenant.ts';
import { attempt, breathe, write, type Tx } from '../../../db/write.ts';
import { findOrCreateContact, newContactValues, refreshContact, type ContactRow } from '../../contacts/queries.ts';
import { startTracking } from '../../ticket-tracking/service.ts';
import type { TicketRow } from '../../tickets/dto.ts';
import { classifyUpload, mediaTypeOfKind, mimeOfPath, removeMediaFile, resolveMediaFile, saveTicketMedia } from '../../media/storage.ts';
import { queueMessages } from '../../messages/send.ts';
import { change, emit, ticketEvent } from '../../../events/emit.ts';
import { findOrCreateNotificationTickets } from '../../tickets/notification.ts';
import type { CampaignRow } from '../dto.ts';
import { readCampaignSettings } from '../settings.ts';
import { decidePacing, type PacingState } from './pacing.ts';
import { valueById } from '../../../db/value-by-id.ts';

type ShippingRow = Selectable<CampaignShippings>;
type FileToSend = { data: Buffer; fileName: string; mimeType: string; kind: ReturnType<typeof classifyUpload>['kind'] };

export type ClaimResult = { sent: number; skipped: number; next: { kind: 'more' } | { kind: 'idle' } | { kind: 'wait'; until: Date } };

class Lost extends Error {}

const serverTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * A stored file, its kind told by the stored path's extension. A file-list option's name is a label
 * ("Catálogo"): the sent file name keeps the stored file's extension.
 */
async function readStoredFile(mediaDir: string, relPath: string, name: string): Promise<FileToSend | undefined> {
  if (!relPath) return undefined;
  const abs = resolveMediaFile(mediaDir, relPath);
  const data = abs ? await readFile(abs).catch(() => undefined) : undefined;
  if (!data) return undefined;
  const ext = path.extname(relPath);
  const fileName = ext && !name.toLowerCase().endsWith(ext.toLowerCase()) ? `${name}${ext}` : name;
  let kind: FileToSend['kind'] = 'document';
  try {
    kind = classifyUpload({ fileName: relPath, mimeType: '', size: 0 }).kind;
  } catch {
    // Not a type the chat classifies: sent as a document.
  }
  return { data, fileName, mimeType: mimeOfPath(relPath), kind };
}

type CampaignFiles = { media?: FileToSend; list: FileToSend[]; listMessage: string };

/** The campaign's media and its file list's files, read before the write. A missing file is left out. */
async function readFiles(deps: AppDeps, campaign: CampaignRow): Promise<CampaignFiles> {
  const media = campaign.mediaPath ? await readStoredFile(deps.config.mediaDir, campaign.mediaPath, campaign.mediaName ?? 'file') : undefined;
  if (campaign.fileListId === null) return { media, list: [], listMessage: '' };
  const t = tenant(deps.db, campaign.companyId);
  const fileList = await t.selectFrom('files').select('files.message').where('files.id', '=', campaign.fileListId).executeTakeFirst();
  const options = await t.selectFrom('filesOptions').select(['filesOptions.path', 'filesOptions.name']).where('filesOptions.fileId', '=', campaign.fileListId).orderBy('filesOptions.id').execute();
  const list: FileToSend[] = [];
  for (const o of options) {
    const file = await readStoredFile(deps.config.mediaDir, o.path, o.name || 'file');
    if (file) list.push(file);
  }
  return { media, list, listMessage: fileList?.message ?? '' };
}

/**
 * The numbers of `numbers` that opted out: a do-not-contact tag on one of the contact's tickets, or
 * a reply that is an opt-out word. Three reads for a whole batch.
 */
async function optedOut(deps: AppDeps, companyId: number, numbers: string[], settings: CampaignSettings): Promise<Set<string>> {
  const t = tenant(deps.db, companyId);
  const contacts = await t.selectFrom('contacts').select(['contacts.id', 'contacts.number']).where('contacts.number', 'in', numbers).execute();
  if (contacts.length === 0) return new Set();
  const numberOf = new Map(contacts.map((c) => [c.id, c.number]));
  const ids = [...numberOf.keys()];
  const out = new Set<string>();
  if (settings.doNotContactTagId !== null) {
    const tagged = await t
      .selectFrom('ticketTags')
      .innerJoin('tickets', 'tickets.id', 'ticketTags.ticketId')
      .select('tickets.contactId')
      .where('tickets.contactId', 'in', ids)
      .where('ticketTags.tagId', '=', settings.doNotContactTagId)
      .execute();
    for (const r of tagged) out.add(numberOf.get(r.contactId)!);
  }
  const stops = await t
    .selectFrom('messages')
    // Through the contact's tickets: messages are indexed by ticket, not by contact.
    .innerJoin('tickets', 'tickets.id', 'messages.ticketId')
    .select('tickets.contactId')
    .where('tickets.contactId', 'in', ids)
    .where('messages.fromMe', '=', 0)
    .where(sql<string>`upper(trim(messages.body))`, 'in', [...CAMPAIGN_OPT_OUT_WORDS])
    .execute();
  for (const r of stops) out.add(numberOf.get(r.contactId)!);
  return out;
}

/**
 * The oldest pending (or confirmed) recipients of the connection's running campaigns: one range of
 * the (company, campaign, status, id) index per campaign and state, merged — a single query over
 * the join would walk every recipient already sent to find the next ones.
 */
async function nextPending(deps: AppDeps, companyId: number, connectionId: number, limit: number): Promise<ShippingRow[]> {
  const t = tenant(deps.db, companyId);
  const campaigns = await t.selectFrom('campaigns').select('campaigns.id').where('campaigns.whatsappId', '=', connectionId).where('campaigns.status', '=', 'EM_ANDAMENTO').execute();
  const rows: ShippingRow[] = [];
  for (const { id } of campaigns) {
    for (const status of ['pending', 'confirmed']) {
      rows.push(
        ...(await t
          .selectFrom('campaignShippings')
          .selectAll('campaignShippings')
          .where('campaignShippings.campaignId', '=', id)
          .where('campaignShippings.status', '=', status)
          .orderBy('campaignShippings.id')
          .limit(limit)
          .execute()),
      );
    }
  }
  return rows.sort((a, b) => a.id - b.id).slice(0, limit);
}

async function readPacing(deps: AppDeps, companyId: number, connectionId: number): Promise<PacingState> {
  const read = () => tenant(deps.db, companyId).selectFrom('campaignPacing').selectAll('campaignPacing').where('campaignPacing.whatsappId', '=', connectionId).executeTakeFirst();
  let p = await read();
  if (!p) {
    // The connection's first campaign send: its row, yielding to one another instance wrote first.
    await deps.db.insertInto('campaignPacing').values({ companyId, whatsappId: connectionId }).onConflict((oc) => oc.column('whatsappId').doNothing()).execute();
    p = await read();
    if (!p) throw new Error('campaign pacing row missing');
  }
  return { nextAt: p.nextAt, runCount: p.runCount, hourStart: p.hourStart, hourCount: p.hourCount, dayStart: p.dayStart, dayCount: p.dayCount };
}

/** The pacing moves from `was` to `next`, or the write is lost to another claimer. */
async function advancePacing(tx: Tx, companyId: number, connectionId: number, was: PacingState, next: PacingState, at: string) {
  const res = await tenant(tx.db, companyId)
    .updateTable('campaignPacing')
    .set({ ...next, updatedAt: at })
    .where('campaignPacing.whatsappId', '=', connectionId)
    .where((eb) => (was.nextAt === null ? eb('campaignPacing.nextAt', 'is', null) : eb('campaignPacing.nextAt', '=', was.nextAt)))
    .where('campaignPacing.runCount', '=', was.runCount)
    .where('campaignPacing.hourCount', '=', was.hourCount)
    .where('campaignPacing.dayCount', '=', was.dayCount)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw new Lost();
}

const pickVariant = (texts: string[], random: (n: number) => number) => {
  const choices = texts.flatMap((m, i) => (m.trim() !== '' ? [{ text: m, variant: i + 1 }] : []));
  return choices[random(choices.length)] ?? { text: '', variant: 1 };
};

type Send = { row: ShippingRow; campaign: CampaignRow; files: CampaignFiles; asking: boolean };

/**
 * The batch's recipients move on, each conditional on the state it was read in (`pending` asked
 * for a confirmation, `pending` or `confirmed` queued); answers the ones that moved. A row changed
 * meanwhile is left to the next claim.
 */
async function markSends(tx: Tx, companyId: number, sends: Send[], at: string): Promise<Send[]> {
  const marked = new Set<number>();
  const groups = [
    { asking: true, from: 'pending' },
    { asking: false, from: 'pending' },
    { asking: false, from: 'confirmed' },
  ];
  for (const { asking, from } of groups) {
    const ids = sends.filter((s) => s.asking === asking && s.row.status === from).map((s) => s.row.id);
    if (ids.length === 0) continue;
    const rows = await tenant(tx.db, companyId)
      .updateTable('campaignShippings')
      .set(asking ? { status: 'confirmation', confirmationRequestedAt: at, dueAt: at, claimedAt: at, updatedAt: at } : { status: 'queued', dueAt: at, claimedAt: at, updatedAt: at })
      .where('campaignShippings.id', 'in', ids)
      .where('campaignShippings.status', '=', from)
      .returning('campaignShippings.id')
      .execute();
    for (const r of rows) marked.add(r.id);
  }
  return sends.filter((s) => marked.has(s.row.id));
}

/** The recipients' contacts by number: one read, one insert of the new ones (a number taken meanwhile yields to its row). */
async function contactsOf(tx: Tx, companyId: number, connectionId: number, sends: Send[]): Promise<Map<string, ContactRow>> {
  const t = tenant(tx.db, companyId);
  const names = new Map(sends.map((s) => [s.row.number, s.row.name]));
  const byNumber = new Map<string, ContactRow>();
  for (const c of await t.selectFrom('contacts').selectAll('contacts').where('contacts.number', 'in', [...names.keys()]).execute()) {
    byNumber.set(c.number, await refreshContact(tx.db, companyId, c, { number: c.number, name: names.get(c.number) || undefined }, c.number));
  }
  const missing = [...names.keys()].filter((n) => !byNumber.has(n));
  if (missing.length === 0) return byNumber;
  const created = await t
    .insertInto('contacts', missing.map((n) => newContactValues({ number: n, name: names.get(n) || undefined }, n, connectionId)))
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .execute();
  for (const c of created) byNumber.set(c.number, c);
  if (created.length > 0) await emit(tx, change(companyId, 'contact', 'create', created[0]!.id, { batch: created.map((c) => c.id), hooks: ['contact.created'], orderKey: 'contact:' }));
  for (const n of missing) if (!byNumber.has(n)) byNumber.set(n, await findOrCreateContact(tx.db, companyId, { number: n, name: names.get(n) || undefined }, connectionId));
  return byNumber;
}

/** The setting ticketOnReplyOnly off: the contact's open or pending ticket on the connection, else a new pending one. */
async function findOrCreatePendingTicket(tx: Tx, connectionId: number, contact: ContactRow): Promise<TicketRow> {
  const t = tenant(tx.db, contact.companyId);
  const active = () =>
    t.selectFrom('tickets').selectAll('tickets').where('tickets.contactId', '=', contact.id).where('tickets.whatsappId', '=', connectionId).where('tickets.status', 'in', ['open', 'pending']).executeTakeFirst();
  const found = await active();
  if (found) return found;
  const now = new Date().toISOString();
  const row = await t
    .insertInto('tickets', { uuid: randomUUID(), status: 'pending', contactId: contact.id, whatsappId: connectionId, isGroup: contact.isGroup, lastInteractionAt: now })
    // The unique active-ticket index decides a race with an inbound message (its own predicate, as in its migration).
    .onConflict((oc) => oc.columns(['companyId', 'contactId', 'whatsappId']).where(sql<boolean>`status IN ('open', 'pending')`).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (row) {
    await startTracking(tx.db, contact.companyId, row, { queuedAt: null, startedAt: null });
    tx.effects.poke(contact.companyId);
    await emit(tx, ticketEvent('create', row));
    return row;
  }
  const raced = await active();
  if (!raced) throw new AppError('ERR_CREATING_TICKET');
  return raced;
}

/** Each contact's ticket: a closed notification ticket unless it has an active one, or (ticketOnReplyOnly off) a pending one. */
async function ticketsOf(tx: Tx, companyId: number, connectionId: number, contacts: ContactRow[], settings: CampaignSettings): Promise<Map<number, TicketRow>> {
  if (settings.ticketOnReplyOnly) return findOrCreateNotificationTickets(tx, companyId, connectionId, contacts);
  const byContact = new Map<number, TicketRow>();
  for (const c of contacts) if (!byContact.has(c.id)) byContact.set(c.id, await findOrCreatePendingTicket(tx, connectionId, c));
  return byContact;
}

const CONFIRMATION_FIELDS = ['confirmationMessage1', 'confirmationMessage2', 'confirmationMessage3', 'confirmationMessage4', 'confirmationMessage5'] as const;
const MESSAGE_FIELDS = ['message1', 'message2', 'message3', 'message4', 'message5'] as const;

/**
 * Queues the batch's messages in one go: each recipient's contact and ticket, its variant rendered
 * with its variables, then one insert of all the messages. A confirmation campaign's pending
 * recipient gets the question (a variant among the non-empty confirmation messages); the others
 * the text (with the campaign's media, if any), then the file list's files. Then each recipient
 * row keeps what it got.
 */
async function queueSends(tx: Tx, companyId: number, connectionId: number, sends: Send[], settings: CampaignSettings, now: Date, random: (n: number) => number) {
  // A batch is a long write: the requests waiting get the thread between its steps.
  const contacts = await contactsOf(tx, companyId, connectionId, sends);
  await breathe(tx);
  const tickets = await ticketsOf(tx, companyId, connectionId, [...contacts.values()], settings);
  await breathe(tx);
  const extra = Object.fromEntries(settings.variables.map((v) => [v.key, v.value]));
  const timeZone = settings.timeZone ?? serverTimeZone();
  const items: Parameters<typeof queueMessages>[2] = [];
  const kept: Kept[] = [];
  for (const send of sends) {
    const { row, campaign, files, asking } = send;
    const contact = contacts.get(row.number)!;
    const ticket = tickets.get(contact.id)!;
    const vars = buildTemplateVars({ contact: { name: row.name || contact.name, number: row.number, email: row.email || contact.email }, ticketId: ticket.id, now, timeZone, lang: 'pt', extra });
    const pick = pickVariant((asking ? CONFIRMATION_FIELDS : MESSAGE_FIELDS).map((f) => campaign[f]), random);
    const body = renderTemplate(pick.text, vars);
    kept.push({ send, contact, item: items.length, variant: pick.variant, body });
    if (asking) {
      items.push({ ticket, out: { body, origin: `campaign-confirm:${row.id}` } });
      continue;
    }
    const save = async (f: FileToSend) => {
      const media = await saveTicketMedia(tx.config.mediaDir, companyId, ticket.id, { ...f, mediaType: mediaTypeOfKind(f.kind) });
      tx.effects.onRollback(() => removeMediaFile(tx.config.mediaDir, media.relPath));
      return media;
    };
    items.push({ ticket, out: { body, media: files.media ? await save(files.media) : undefined, origin: `campaign:${row.id}` } });
    for (const [i, f] of files.list.entries()) items.push({ ticket, out: { body: i === 0 ? renderTemplate(files.listMessage, vars) : '', media: await save(f) } });
  }
  const messages = await queueMessages(tx, companyId, items);
  await breathe(tx);
  const asked = kept.filter((k) => k.send.asking);
  const told = kept.filter((k) => !k.send.asking);
  await recordQueued(tx.db, companyId, asked, { confirmationMessage: (k) => k.body, contactId: (k) => k.contact.id });
  await recordQueued(tx.db, companyId, told, { messageId: (k) => messages[k.item]!.id, variant: (k) => k.variant, message: (k) => k.body, contactId: (k) => k.contact.id });
}

type Kept = { send: Send; contact: ContactRow; item: number; variant: number; body: string };
type QueuedColumn = 'confirmationMessage' | 'messageId' | 'variant' | 'message' | 'contactId';
const SQL_TYPE: Record<QueuedColumn, 'text' | 'integer'> = { confirmationMessage: 'text', message: 'text', messageId: 'integer', variant: 'integer', contactId: 'integer' };

/**
 * What each recipient got (its confirmation question, or its message: id, variant, text), in one
 * statement for the batch: `set column = case id when … then … end`, typed casts so both dialects
 * read the values alike.
 */
async function recordQueued(db: Tx['db'], companyId: number, kept: Kept[], columns: Partial<Record<QueuedColumn, (k: Kept) => string | number>>) {
  if (kept.length === 0) return;
  const set: Record<string, RawBuilder<unknown>> = {};
  for (const [column, value] of Object.entries(columns) as [QueuedColumn, (k: Kept) => string | number][]) {
    set[column] = valueById('campaignShippings.id', kept.map((k) => [k.send.row.id, value(k)]), SQL_TYPE[column]);
  }
  await tenant(db, companyId)
    .updateTable('campaignShippings')
    .set(set)
    .where(
      'campaignShippings.id',
      'in',
      kept.map((k) => k.send.row.id),
    )
    .execute();
}

export type ClaimOptions = { now: Date; random?: () => number; /** Sends at most (default BATCH). */ max?: number };

/** Recipients looked at, and at most sent, in one claim: one write, a few reads, one number check. */
export const BATCH = 50;

/**
 * One claim on the connection: the recipients its pacing lets go now (with intervals at 0, a whole
 * batch; otherwise one) and the skips met on the way, in ONE write. Answers what it did and whether
 * there is more now, nothing, or a time to look again.
 */
export async function claimShippings(deps: AppDeps, companyId: number, connectionId: number, opts: ClaimOptions): Promise<ClaimResult> {
  const max = Math.max(1, Math.min(opts.max ?? BATCH, BATCH));
  const rows = await nextPending(deps, companyId, connectionId, max);
  if (rows.length === 0) return { sent: 0, skipped: 0, next: { kind: 'idle' } };
  const settings = await readCampaignSettings(deps.db, companyId);
  const at = opts.now.toISOString();
  const timeZone = settings.timeZone ?? serverTimeZone();
  // Asked first: while the connection must wait, nothing else is read or asked of the network.
  const pacing = await readPacing(deps, companyId, connectionId);
  const first = decidePacing(settings, pacing, opts.now, { timeZone, random: opts.random });
  if (first.kind === 'wait') return { sent: 0, skipped: 0, next: { kind: 'wait', until: first.until } };

  const numbers = rows.map((r) => r.number);
  const out = await optedOut(deps, companyId, numbers, settings);
  // Is the number on WhatsApp? Asked of the network here, outside any transaction; a failed check
  // is no answer (the outbox then fails an invalid contact with ERR_WAPP_INVALID_CONTACT).
  const channel = deps.outbox.channel(connectionId);
  const checks = channel ? await channel.checkNumbers(numbers).catch(() => []) : [];
  const absent = new Set(checks.filter((c) => !c.exists).map((c) => c.number));

  // The pacing decides send by send; skips spend no budget and are written whatever it says.
  const skips: { row: ShippingRow; reason: 'opted-out' | 'invalid' }[] = [];
  const sends: ShippingRow[] = [];
  let state = pacing;
  let next: ClaimResult['next'] = { kind: 'more' };
  for (const row of rows) {
    if (out.has(row.number)) skips.push({ row, reason: 'opted-out' });
    else if (absent.has(row.number)) skips.push({ row, reason: 'invalid' });
    else if (next.kind === 'more') {
      const decision = sends.length === 0 ? first : decidePacing(settings, state, opts.now, { timeZone, random: opts.random });
      if (decision.kind === 'wait') {
        next = { kind: 'wait', until: decision.until };
        continue;
      }
      sends.push(row);
      state = decision.next;
      // The next send is not due yet: it is the next claim's.
      if (state.nextAt !== null && Date.parse(state.nextAt) > opts.now.getTime()) next = { kind: 'wait', until: new Date(state.nextAt) };
    }
  }

  const campaigns = new Map<number, { row: CampaignRow; files: CampaignFiles }>();
  for (const id of new Set(sends.map((r) => r.campaignId))) {
    const row = await tenant(deps.db, companyId).selectFrom('campaigns').selectAll('campaigns').where('campaigns.id', '=', id).executeTakeFirstOrThrow();
    campaigns.set(id, { row, files: await readFiles(deps, row) });
  }
  const random = opts.random ?? Math.random;
  const pick = opts.random ? (n: number) => Math.min(n - 1, Math.floor(random() * n)) : (n: number) => (n > 0 ? randomInt(n) : 0);
  let sent = 0;
  try {
    await write(deps, async (tx) => {
      const t = tenant(tx.db, companyId);
      if (sends.length > 0) await advancePacing(tx, companyId, connectionId, pacing, state, at);
      for (const { row, reason } of skips) {
        await t.updateTable('campaignShippings').set({ status: 'skipped', reason, updatedAt: at }).where('campaignShippings.id', '=', row.id).where('campaignShippings.status', '=', row.status).execute();
      }
      const batch = sends.map((row) => {
        const { row: campaign, files } = campaigns.get(row.campaignId)!;
        // A confirmation campaign asks first: its pending recipients get the question, and only
        // the ones who answered yes (confirmed, dispatch/replies.ts) get the real message.
        return { row, campaign, files, asking: campaign.confirmation === 1 && row.status === 'pending' };
      });
      const marked = await markSends(tx, companyId, batch, at);
      const done = await attempt(tx, (tx) => queueSends(tx, companyId, connectionId, marked, settings, opts.now, pick));
      if (done.ok) sent = marked.length;
      else {
        // What prevents queueing (a contact that cannot be written, a file that cannot be stored)
        // fails these recipients with its code, not the campaign: it goes on with the next ones.
        const code = done.error instanceof AppError ? done.error.code : 'ERR_SENDING_WAPP_MSG';
        if (!(done.error instanceof AppError)) tx.log.error('campaign recipients failed', { shippingIds: marked.map((m) => m.row.id), error: String(done.error) });
        for (const { row } of marked) {
          await t.updateTable('campaignShippings').set({ status: 'failed', reason: code, error: code, updatedAt: at }).where('campaignShippings.id', '=', row.id).execute();
        }
      }
      tx.effects.poke(companyId);
    });
  } catch (err) {
    // Another claimer moved the pacing first: nothing of this claim was written; look again.
    if (err instanceof Lost) return { sent: 0, skipped: 0, next: { kind: 'more' } };
    throw err;
  }
  return { sent, skipped: skips.length, next: rows.length < max && next.kind === 'more' ? { kind: 'idle' } : next };
}
