// How one scheduled message reaches the contact. When the contact has an active (open or pending)
// ticket on the sending connection, the message goes through that ticket, so it shows in the
// conversation like an agent's message; otherwise it goes straight to the network and no ticket
// is opened (a reminder should not fill the pending list; the contact's reply opens one).
import { readFile } from 'node:fs/promises';
import { AppError, buildTemplateVars, renderTemplate, type GreetingLanguage } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { AppDeps } from '../context.ts';
import type { Schedules } from '../db/schema.ts';
import { tenant } from '../db/tenant.ts';
import { contactPeer, type ContactRow } from '../modules/contacts/queries.ts';
import { mimeOfPath, removeMediaFile, resolveMediaFile, saveTicketMedia } from '../modules/media/storage.ts';
import { sendTicketMessage } from '../modules/messages/send.ts';
import { announceTicketChange } from '../modules/tickets/events.ts';

type ScheduleRow = Selectable<Schedules>;
type Image = { data: Buffer; fileName: string; mimeType: string };

async function readImage(deps: AppDeps, row: ScheduleRow): Promise<Image | undefined> {
  if (!row.mediaPath) return undefined;
  const file = resolveMediaFile(deps.config.mediaDir, row.mediaPath);
  const data = file ? await readFile(file).catch(() => undefined) : undefined;
  if (!data) throw new AppError('ERR_SENDING_WAPP_MSG', 'The image of the schedule is missing.');
  return { data, fileName: row.mediaName ?? 'image', mimeType: mimeOfPath(row.mediaPath) };
}

/**
 * The language of `{{ms}}`: the interface language of the schedule's author, who wrote the body in
 * it; English (the interface's default, spec/01) when the author chose none or is gone.
 */
async function greetingLanguage(deps: AppDeps, row: ScheduleRow): Promise<GreetingLanguage> {
  if (row.userId === null) return 'en';
  const author = await tenant(deps.db, row.companyId).selectFrom('users').select('users.language').where('users.id', '=', row.userId).executeTakeFirst();
  const lang = author?.language;
  return lang === 'pt' || lang === 'es' ? lang : 'en';
}

/** Renders and sends the schedule through the connection; throws the catalogue error of a failure. */
export async function deliverSchedule(deps: AppDeps, row: ScheduleRow, contact: ContactRow, connectionId: number, opts: { now: Date; timeZone: string }): Promise<void> {
  const t = tenant(deps.db, row.companyId);
  const ticket = await t
    .selectFrom('tickets')
    .selectAll('tickets')
    .where('tickets.contactId', '=', contact.id)
    .where('tickets.whatsappId', '=', connectionId)
    .where('tickets.status', 'in', ['open', 'pending'])
    .orderBy('tickets.id', 'desc')
    .executeTakeFirst();
  const vars = buildTemplateVars({ contactName: contact.name, ticketId: row.ticketId ?? ticket?.id, now: opts.now, timeZone: opts.timeZone, lang: await greetingLanguage(deps, row) });
  const body = renderTemplate(row.body, vars);
  const image = await readImage(deps, row);
  if (!ticket) {
    const content = image ? { kind: 'media' as const, mediaType: 'image' as const, ...image, caption: body || undefined } : { kind: 'text' as const, body };
    await deps.outbound.send(connectionId, { to: contactPeer(contact), content });
    return;
  }
  const media = image ? await saveTicketMedia(deps.config.mediaDir, row.companyId, ticket.id, { ...image, mediaType: 'image', kind: 'image' }) : undefined;
  try {
    await sendTicketMessage(deps, ticket, { body, media });
  } catch (err) {
    if (media) await removeMediaFile(deps.config.mediaDir, media.relPath);
    throw err;
  }
  announceTicketChange(deps, row.companyId);
}
