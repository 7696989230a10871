// Scheduled messages (spec/02 §3-§5, §7). Who sees what: admins (and the super-admin) every
// schedule of their company; other users only the ones they created, since a schedule is a
// personal reminder-like tool and the spec gives attendants no "show all" for it. A row the actor
// may not see answers 404, as another company's would.
//
// A schedule changes only while it is unsent and not in the sending job's hands: the write is
// conditional in SQL, so a job that claimed the row a moment earlier wins and the edit is refused.
// Writes run in the route's transaction (`Tx`, DESIGN §12) and poke the company (schedules are in
// the client view); an image they drop is removed once the write commits.
import { AppError, isCompanyAdmin, PAGE_SIZE, SCHEDULE_PAST_TOLERANCE_MS, type ScheduleCreateInput, type ScheduledMessage, type SchedulePage, type ScheduleUpdateInput } from '@zapdesk/sync';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Actor } from '../../context.ts';
import { nowIso, type Database } from '../../db/database.ts';
import { likeFolded } from '../../db/like.ts';
import type { DB } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { removeAttachmentAfterCommit, replaceAttachment } from '../media/attachments.ts';
import type { UploadedFile } from '../media/uploads.ts';
import { toScheduleDto, toScheduleDtos, type ScheduleRow } from './dto.ts';

const visibleTo = (actor: Actor) => (eb: ExpressionBuilder<DB, 'schedules'>) =>
  isCompanyAdmin(actor) ? sql<boolean>`1 = 1` : eb('schedules.userId', '=', actor.userId);

/** The row if the actor may see it; 404 otherwise. */
export async function getScheduleRow(db: Database, actor: Actor, id: number): Promise<ScheduleRow> {
  const row = await tenant(db, actor.companyId).selectFrom('schedules').selectAll('schedules').where('schedules.id', '=', id).where(visibleTo(actor)).executeTakeFirst();
  if (!row) throw new AppError('ERR_NOT_FOUND', 'Schedule not found.');
  return row;
}

/** GET /schedules: searched over the body and the contact's name, soonest first. */
export async function findSchedulesPage(db: Database, actor: Actor, q: { searchParam: string; pageNumber: number; contactId?: number }): Promise<SchedulePage> {
  const t = tenant(db, actor.companyId);
  let query = t.selectFrom('schedules').where(visibleTo(actor));
  if (q.contactId) query = query.where('schedules.contactId', '=', q.contactId);
  if (q.searchParam) {
    const matchingContacts = t.selectFrom('contacts').select('contacts.id').where((eb) => likeFolded(eb.ref('contacts.name'), q.searchParam!));
    query = query.where((eb) => eb.or([likeFolded(eb.ref('schedules.body'), q.searchParam!), eb('schedules.contactId', 'in', matchingContacts)]));
  }
  const { count } = await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const rows = await query
    .selectAll('schedules')
    .orderBy('schedules.sendAt')
    .orderBy('schedules.id')
    .limit(PAGE_SIZE + 1)
    .offset((q.pageNumber - 1) * PAGE_SIZE)
    .execute();
  return { schedules: await toScheduleDtos(db, actor.companyId, rows.slice(0, PAGE_SIZE)), count: Number(count), hasMore: rows.length > PAGE_SIZE };
}

function assertSendAtAhead(sendAt: string, now: Date) {
  if (Date.parse(sendAt) < now.getTime() - SCHEDULE_PAST_TOLERANCE_MS) {
    throw new AppError('ERR_VALIDATION', 'sendAt: the time has passed', { issues: [{ path: 'sendAt', message: 'The send time must not be in the past' }] });
  }
}

/** The contact (and ticket, when named) must be the company's; the ticket must be the contact's. */
async function assertTargets(db: Database, companyId: number, contactId: number, ticketId: number | null | undefined) {
  const t = tenant(db, companyId);
  const contact = await t.selectFrom('contacts').select('contacts.id').where('contacts.id', '=', contactId).executeTakeFirst();
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  if (!ticketId) return;
  const ticket = await t.selectFrom('tickets').select(['tickets.id', 'tickets.contactId']).where('tickets.id', '=', ticketId).executeTakeFirst();
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  if (ticket.contactId !== contactId) {
    throw new AppError('ERR_VALIDATION', "ticketId: not a ticket of this contact", { issues: [{ path: 'ticketId', message: 'Not a ticket of this contact' }] });
  }
}

export async function createSchedule(tx: Tx, actor: Actor, input: ScheduleCreateInput, now = new Date()): Promise<ScheduledMessage> {
  const { db } = tx;
  assertSendAtAhead(input.sendAt, now);
  await assertTargets(db, actor.companyId, input.contactId, input.ticketId);
  const row = await tenant(db, actor.companyId)
    .insertInto('schedules', { body: input.body, contactId: input.contactId, sendAt: input.sendAt, ticketId: input.ticketId ?? null, userId: actor.userId, status: 'PENDENTE' })
    .returningAll()
    .executeTakeFirstOrThrow();
  tx.effects.poke(actor.companyId);
  return toScheduleDto(db, actor.companyId, row);
}

type ScheduleChanges = ScheduleUpdateInput & { mediaPath?: string | null; mediaName?: string | null };

/** The row if the actor may change it now: visible, unsent, not being sent. */
export async function getChangeableSchedule(db: Database, actor: Actor, id: number): Promise<ScheduleRow> {
  const row = await getScheduleRow(db, actor, id);
  if (row.sentAt !== null) throw new AppError('ERR_VALIDATION', 'A schedule that was sent cannot be changed.');
  if (row.claimedAt !== null && row.status === 'PENDENTE') throw new AppError('ERR_VALIDATION', 'The schedule is being sent right now.');
  return row;
}

/**
 * Applies the changes to an unsent schedule. A failed one (ERRO) goes back to PENDENTE with its
 * claim cleared, so editing it is how a user retries it.
 */
export async function updateSchedule(tx: Tx, actor: Actor, id: number, input: ScheduleChanges, now = new Date()): Promise<ScheduledMessage> {
  const { db } = tx;
  const current = await getChangeableSchedule(db, actor, id);
  if (input.sendAt !== undefined && input.sendAt !== current.sendAt) assertSendAtAhead(input.sendAt, now);
  const contactId = input.contactId ?? current.contactId;
  const ticketId = input.ticketId !== undefined ? input.ticketId : current.contactId === contactId ? current.ticketId : null;
  if (input.contactId !== undefined || input.ticketId) await assertTargets(db, actor.companyId, contactId, ticketId);
  const row = await tenant(db, actor.companyId)
    .updateTable('schedules')
    .set((eb) => ({
      ...(input.body !== undefined ? { body: input.body } : {}),
      ...(input.sendAt !== undefined ? { sendAt: input.sendAt } : {}),
      ...(input.mediaPath !== undefined ? { mediaPath: input.mediaPath, mediaName: input.mediaName ?? null } : {}),
      contactId,
      ticketId: ticketId ?? null,
      status: 'PENDENTE',
      error: null,
      claimedAt: null,
      claimedBy: null,
      version: eb('schedules.version', '+', 1),
      updatedAt: nowIso(),
    }))
    .where('schedules.id', '=', id)
    .where('schedules.sentAt', 'is', null)
    .where((eb) => eb.or([eb('schedules.claimedAt', 'is', null), eb('schedules.status', '=', 'ERRO')]))
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new AppError('ERR_VALIDATION', 'The schedule is being sent right now.');
  tx.effects.poke(actor.companyId);
  return toScheduleDto(db, actor.companyId, row);
}

/** POST/DELETE /schedules/{id}/media-upload: `file` (or none) becomes the image (media/attachments.ts). */
export async function setScheduleMedia(tx: Tx, actor: Actor, id: number, file: UploadedFile | null): Promise<ScheduledMessage> {
  const previous = (await getChangeableSchedule(tx.db, actor, id)).mediaPath;
  return replaceAttachment(tx, { companyId: actor.companyId, folder: 'schedules', previous }, file, (attachment) => updateSchedule(tx, actor, id, attachment));
}

/** Deletes the row (sent or not); its image is removed once the write commits. */
export async function deleteSchedule(tx: Tx, actor: Actor, id: number): Promise<void> {
  const row = await getScheduleRow(tx.db, actor, id);
  await tenant(tx.db, actor.companyId).deleteFrom('schedules').where('schedules.id', '=', id).execute();
  removeAttachmentAfterCommit(tx, row.mediaPath);
  tx.effects.poke(actor.companyId);
}
