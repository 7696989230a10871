// How one claimed schedule becomes a message. Everything that needs no transaction is read first
// (contact, default connection, the image's bytes, the author's language); then one write marks the
// schedule ENVIADA and queues its message in the contact's active ticket on that connection, or in a
// new closed ticket (a reminder should not fill the pending list; the contact's reply opens one).
// The outbox sends it after the commit; if it fails for good, the schedule becomes ERRO with the
// failure's code (recordScheduleOutcome, called by the outbox in its own transaction).
import { readFile } from 'node:fs/promises';
import { AppError, buildTemplateVars, renderTemplate, type GreetingLanguage } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { AppDeps } from '../context.ts';
import type { Schedules } from '../db/schema.ts';
import { tenant } from '../db/tenant.ts';
import { write, type Reader, type Tx } from '../db/write.ts';
import { mimeOfPath, removeMediaFile, resolveMediaFile, saveTicketMedia } from '../modules/media/storage.ts';
import { queueTicketMessage } from '../modules/messages/send.ts';
import { findOrCreateNotificationTicket } from '../modules/tickets/notification.ts';
import { ticketNames } from '../inbound/reply.ts';

type ScheduleRow = Selectable<Schedules>;
type Image = { data: Buffer; fileName: string; mimeType: string };

async function readImage(r: Reader, row: ScheduleRow): Promise<Image | undefined> {
  if (!row.mediaPath) return undefined;
  const file = resolveMediaFile(r.config.mediaDir, row.mediaPath);
  const data = file ? await readFile(file).catch(() => undefined) : undefined;
  if (!data) throw new AppError('ERR_SENDING_WAPP_MSG', 'The image of the schedule is missing.');
  return { data, fileName: row.mediaName ?? 'image', mimeType: mimeOfPath(row.mediaPath) };
}

/**
 * The language of `{{ms}}`: the interface language of the schedule's author, who wrote the body in
 * it; English (the interface's default, spec/01) when the author chose none or is gone.
 */
async function greetingLanguage(r: Reader, row: ScheduleRow): Promise<GreetingLanguage> {
  if (row.userId === null) return 'en';
  const author = await tenant(r.db, row.companyId).selectFrom('users').select('users.language').where('users.id', '=', row.userId).executeTakeFirst();
  const lang = author?.language;
  return lang === 'pt' || lang === 'es' ? lang : 'en';
}

/**
 * Queues a claimed schedule's message and marks it ENVIADA, in one write: a crash before the commit
 * leaves the schedule PENDENTE with nothing sent. Answers false when the claim was lost meanwhile.
 * Throws the catalogue error of what prevents queueing (no contact, no default connection, no image).
 */
export async function queueSchedule(deps: AppDeps, row: ScheduleRow, opts: { now: Date; timeZone: string }): Promise<boolean> {
  const t = tenant(deps.db, row.companyId);
  const contact = await t.selectFrom('contacts').selectAll('contacts').where('contacts.id', '=', row.contactId).executeTakeFirst();
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  const connection = await t.selectFrom('whatsapps').select('whatsapps.id').where('whatsapps.isDefault', '=', 1).orderBy('whatsapps.id').executeTakeFirst();
  if (!connection) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
  const image = await readImage(deps, row);
  const lang = await greetingLanguage(deps, row);
  return write(deps, async (tx) => {
    const at = opts.now.toISOString();
    const marked = await tenant(tx.db, row.companyId)
      .updateTable('schedules')
      .set((eb) => ({ status: 'ENVIADA', sentAt: at, error: null, updatedAt: at, version: eb('schedules.version', '+', 1) }))
      .where('schedules.id', '=', row.id)
      .where('schedules.claimedBy', '=', row.claimedBy)
      .where('schedules.status', '=', 'PENDENTE')
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 0) return false;
    const ticket = await findOrCreateNotificationTicket(tx, connection.id, contact);
    const names = await ticketNames(tx, ticket);
    const vars = buildTemplateVars({ contact, ticketId: row.ticketId ?? ticket.id, ...names, now: opts.now, timeZone: opts.timeZone, lang });
    const media = image ? await saveTicketMedia(tx.config.mediaDir, row.companyId, ticket.id, { ...image, mediaType: 'image', kind: 'image' }) : undefined;
    if (media) tx.effects.onRollback(() => removeMediaFile(tx.config.mediaDir, media.relPath));
    await queueTicketMessage(tx, ticket, { body: renderTemplate(row.body, vars), media, origin: `schedule:${row.id}` });
    tx.effects.poke(row.companyId);
    return true;
  });
}

/** The outbox's word on a schedule's message: a failure for good turns the schedule ERRO with its code. */
export async function recordScheduleOutcome(tx: Tx, companyId: number, scheduleId: number, outcome: { status: 'sent' } | { status: 'failed'; code: string }): Promise<void> {
  if (outcome.status !== 'failed') return;
  const now = new Date().toISOString();
  await tenant(tx.db, companyId)
    .updateTable('schedules')
    .set((eb) => ({ status: 'ERRO', error: outcome.code, sentAt: null, updatedAt: now, version: eb('schedules.version', '+', 1) }))
    .where('schedules.id', '=', scheduleId)
    .where('schedules.status', '=', 'ENVIADA')
    .execute();
  tx.effects.poke(companyId);
}
