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
import { sql, type Selectable } from 'kysely';
import type { AppDeps } from '../../../context.ts';
import type { CampaignShippings } from '../../../db/schema.ts';
import { tenant } from '../../../db/tenant.ts';
import { write, type Tx } from '../../../db/write.ts';
import { findOrCreateContact, type ContactRow } from '../../contacts/queries.ts';
import { startTracking } from '../../ticket-tracking/service.ts';
import type { TicketRow } from '../../tickets/dto.ts';
import { classifyUpload, mediaTypeOfKind, mimeOfPath, removeMediaFile, resolveMediaFile, saveTicketMedia } from '../../media/storage.ts';
import { queueTicketMessage } from '../../messages/send.ts';
import { findOrCreateNotificationTicket } from '../../tickets/notification.ts';
import type { CampaignRow } from '../dto.ts';
import { readCampaignSettings } from '../settings.ts';
import { decidePacing, type PacingState } from './pacing.ts';

type ShippingRow = Selectable<CampaignShippings>;
type FileToSend = { data: Buffer; fileName: string; mimeType: string; kind: ReturnType<typeof classifyUpload>['kind'] };

export type ClaimResult = { kind: 'sent'; shippingId: number } | { kind: 'skipped'; shippingId: number } | { kind: 'idle' } | { kind: 'wait'; until: Date };

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

/** The campaign's media and its file list's files, read before the write. A missing file is left out. */
async function readFiles(deps: AppDeps, campaign: CampaignRow): Promise<{ media?: FileToSend; list: FileToSend[]; listMessage: string }> {
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

/** Opted out: a do-not-contact tag on one of the contact's tickets, or a reply that is an opt-out word. */
async function isOptedOut(deps: AppDeps, companyId: number, number: string, settings: CampaignSettings): Promise<boolean> {
  const t = tenant(deps.db, companyId);
  const contact = await t.selectFrom('contacts').select('contacts.id').where('contacts.number', '=', number).executeTakeFirst();
  if (!contact) return false;
  if (settings.doNotContactTagId !== null) {
    const tagged = await t
      .selectFrom('ticketTags')
      .innerJoin('tickets', 'tickets.id', 'ticketTags.ticketId')
      .select('ticketTags.ticketId')
      .where('tickets.contactId', '=', contact.id)
      .where('ticketTags.tagId', '=', settings.doNotContactTagId)
      .executeTakeFirst();
    if (tagged) return true;
  }
  const stop = await t
    .selectFrom('messages')
    .select('messages.id')
    // Through the contact's tickets: messages are indexed by ticket, not by contact.
    .where('messages.ticketId', 'in', t.selectFrom('tickets').select('tickets.id').where('tickets.contactId', '=', contact.id))
    .where('messages.fromMe', '=', 0)
    .where(sql<string>`upper(trim(messages.body))`, 'in', [...CAMPAIGN_OPT_OUT_WORDS])
    .executeTakeFirst();
  return stop !== undefined;
}

async function nextPending(deps: AppDeps, connectionId: number): Promise<(ShippingRow & { campaign: CampaignRow }) | undefined> {
  // Crosses companies on purpose only in name: a connection belongs to one company.
  const row = await deps.db
    .selectFrom('campaignShippings')
    .innerJoin('campaigns', 'campaigns.id', 'campaignShippings.campaignId')
    .selectAll('campaignShippings')
    .where('campaigns.whatsappId', '=', connectionId)
    .where('campaigns.status', '=', 'EM_ANDAMENTO')
    .where('campaignShippings.status', 'in', ['pending', 'confirmed'])
    .orderBy('campaignShippings.id')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  const campaign = await tenant(deps.db, row.companyId).selectFrom('campaigns').selectAll('campaigns').where('campaigns.id', '=', row.campaignId).executeTakeFirstOrThrow();
  return { ...row, campaign };
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

const variantsOf = (c: CampaignRow) => [c.message1, c.message2, c.message3, c.message4, c.message5];

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
    return row;
  }
  const raced = await active();
  if (!raced) throw new AppError('ERR_CREATING_TICKET');
  return raced;
}

async function recipientContext(tx: Tx, row: ShippingRow, connectionId: number, settings: CampaignSettings, now: Date) {
  const contact = await findOrCreateContact(tx.db, row.companyId, { number: row.number, name: row.name || undefined }, connectionId);
  const ticket = settings.ticketOnReplyOnly ? await findOrCreateNotificationTicket(tx, connectionId, contact) : await findOrCreatePendingTicket(tx, connectionId, contact);
  const extra = Object.fromEntries(settings.variables.map((v) => [v.key, v.value]));
  const vars = buildTemplateVars({
    contact: { name: row.name || contact.name, number: row.number, email: row.email || contact.email },
    ticketId: ticket.id,
    now,
    timeZone: settings.timeZone ?? serverTimeZone(),
    lang: 'pt',
    extra,
  });
  return { contact, ticket, vars };
}

const pickVariant = (texts: string[], random: (n: number) => number) => {
  const choices = texts.flatMap((m, i) => (m.trim() !== '' ? [{ text: m, variant: i + 1 }] : []));
  return choices[random(choices.length)] ?? { text: '', variant: 1 };
};

/** Queues the confirmation question (a variant among the non-empty confirmation messages). */
async function queueConfirmation(tx: Tx, row: ShippingRow & { campaign: CampaignRow }, connectionId: number, settings: CampaignSettings, now: Date, random: (n: number) => number) {
  const c = row.campaign;
  const { contact, ticket, vars } = await recipientContext(tx, row, connectionId, settings, now);
  const pick = pickVariant([c.confirmationMessage1, c.confirmationMessage2, c.confirmationMessage3, c.confirmationMessage4, c.confirmationMessage5], random);
  const body = renderTemplate(pick.text, vars);
  await queueTicketMessage(tx, ticket, { body, origin: `campaign-confirm:${row.id}` });
  await tenant(tx.db, row.companyId)
    .updateTable('campaignShippings')
    .set({ confirmationMessage: body, contactId: contact.id })
    .where('campaignShippings.id', '=', row.id)
    .execute();
}

/** Queues one recipient's messages: the text (with the campaign's media, if any), then the file list's files. */
async function queueRecipient(tx: Tx, row: ShippingRow & { campaign: CampaignRow }, connectionId: number, settings: CampaignSettings, files: Awaited<ReturnType<typeof readFiles>>, now: Date, random: (n: number) => number) {
  const { campaign } = row;
  const { contact, ticket, vars } = await recipientContext(tx, row, connectionId, settings, now);
  const pick = pickVariant(variantsOf(campaign), random);
  const body = renderTemplate(pick.text, vars);
  const save = async (f: FileToSend) => {
    const media = await saveTicketMedia(tx.config.mediaDir, row.companyId, ticket.id, { ...f, mediaType: mediaTypeOfKind(f.kind) });
    tx.effects.onRollback(() => removeMediaFile(tx.config.mediaDir, media.relPath));
    return media;
  };
  const main = await queueTicketMessage(tx, ticket, { body, media: files.media ? await save(files.media) : undefined, origin: `campaign:${row.id}` });
  for (const [i, f] of files.list.entries()) {
    await queueTicketMessage(tx, ticket, { body: i === 0 ? renderTemplate(files.listMessage, vars) : '', media: await save(f) });
  }
  await tenant(tx.db, row.companyId)
    .updateTable('campaignShippings')
    .set({ messageId: main.id, variant: pick.variant, message: body, contactId: contact.id })
    .where('campaignShippings.id', '=', row.id)
    .execute();
}

export type ClaimOptions = { now: Date; random?: () => number };

/** One claim on the connection: a send, a skip, nothing to do, or the time to look again. */
export async function claimNextShipping(deps: AppDeps, connectionId: number, opts: ClaimOptions): Promise<ClaimResult> {
  const row = await nextPending(deps, connectionId);
  if (!row) return { kind: 'idle' };
  const settings = await readCampaignSettings(deps.db, row.companyId);
  const at = opts.now.toISOString();
  // Asked first: while the connection must wait, nothing else is read or asked of the network.
  const pacing = await readPacing(deps, row.companyId, connectionId);
  const decision = decidePacing(settings, pacing, opts.now, { timeZone: settings.timeZone ?? serverTimeZone(), random: opts.random });
  if (decision.kind === 'wait') return { kind: 'wait', until: decision.until };
  const skip = async (reason: 'opted-out' | 'invalid'): Promise<ClaimResult> => {
    // A skip spends no budget of the connection.
    await write(deps, async (tx) => {
      await tenant(tx.db, row.companyId)
        .updateTable('campaignShippings')
        .set({ status: 'skipped', reason, updatedAt: at })
        .where('campaignShippings.id', '=', row.id)
        .where('campaignShippings.status', '=', row.status)
        .execute();
      tx.effects.poke(row.companyId);
    });
    return { kind: 'skipped', shippingId: row.id };
  };
  if (await isOptedOut(deps, row.companyId, row.number, settings)) return skip('opted-out');
  // Is the number on WhatsApp? Asked of the network here, outside any transaction; a failed check
  // is no answer (the outbox then fails an invalid contact with ERR_WAPP_INVALID_CONTACT).
  const channel = deps.outbox.channel(connectionId);
  const [check] = channel ? await channel.checkNumbers([row.number]).catch(() => []) : [];
  if (check && !check.exists) return skip('invalid');
  const files = await readFiles(deps, row.campaign);
  const random = opts.random ?? Math.random;
  const pick = opts.random ? (n: number) => Math.min(n - 1, Math.floor(random() * n)) : (n: number) => (n > 0 ? randomInt(n) : 0);
  try {
    await deps.contactLocks.run(`${row.companyId}:${row.number}`, () =>
      write(deps, async (tx) => {
        await advancePacing(tx, row.companyId, connectionId, pacing, decision.next, at);
        // A confirmation campaign asks first: its pending recipients get the question, and only
        // the ones who answered yes (confirmed, inbound/campaign-replies) get the real message.
        const asking = row.campaign.confirmation === 1 && row.status === 'pending';
        const marked = await tenant(tx.db, row.companyId)
          .updateTable('campaignShippings')
          .set(asking ? { status: 'confirmation', confirmationRequestedAt: at, dueAt: at, claimedAt: at, updatedAt: at } : { status: 'queued', dueAt: at, claimedAt: at, updatedAt: at })
          .where('campaignShippings.id', '=', row.id)
          .where('campaignShippings.status', '=', row.status)
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) === 0) throw new Lost();
        if (asking) await queueConfirmation(tx, row, connectionId, settings, opts.now, pick);
        else await queueRecipient(tx, row, connectionId, settings, files, opts.now, pick);
      }),
    );
  } catch (err) {
    if (err instanceof Lost) return { kind: 'wait', until: opts.now };
    // What prevents queueing this recipient (the contact cannot be written, a file cannot be
    // stored) fails the recipient with its code; the campaign goes on with the next one.
    const code = err instanceof AppError ? err.code : 'ERR_SENDING_WAPP_MSG';
    if (!(err instanceof AppError)) deps.log.error('campaign recipient failed', { shippingId: row.id, error: String(err) });
    await tenant(deps.db, row.companyId)
      .updateTable('campaignShippings')
      .set({ status: 'failed', reason: code, error: code, updatedAt: at })
      .where('campaignShippings.id', '=', row.id)
      .where('campaignShippings.status', '=', row.status)
      .execute();
    return { kind: 'skipped', shippingId: row.id };
  }
  return { kind: 'sent', shippingId: row.id };
}
