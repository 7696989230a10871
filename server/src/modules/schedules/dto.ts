// The one row → wire mapper of schedules (sync/src/domain/schedule.ts `scheduledMessageSchema`):
// the REST answers and the sync view (`schedule/<id>`, view.ts) both send what this returns. The
// contact and the author ride along by name, read in one query each whatever the number of rows.
import type { ScheduledMessage, ScheduleStatus } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Schedules } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';

export type ScheduleRow = Selectable<Schedules>;

export async function toScheduleDtos(db: Database, companyId: number, rows: ScheduleRow[]): Promise<ScheduledMessage[]> {
  if (rows.length === 0) return [];
  const t = tenant(db, companyId);
  const contactIds = [...new Set(rows.map((r) => r.contactId))];
  const userIds = [...new Set(rows.flatMap((r) => (r.userId === null ? [] : [r.userId])))];
  const contacts = await t.selectFrom('contacts').select(['contacts.id', 'contacts.name', 'contacts.number']).where('contacts.id', 'in', contactIds).execute();
  const users = userIds.length ? await t.selectFrom('users').select(['users.id', 'users.name']).where('users.id', 'in', userIds).execute() : [];
  const contactById = new Map(contacts.map((c) => [c.id, c]));
  const userById = new Map(users.map((u) => [u.id, u]));
  return rows.map((r) => ({
    id: r.id,
    body: r.body,
    status: r.status as ScheduleStatus,
    sendAt: r.sendAt,
    sentAt: r.sentAt,
    error: r.error,
    contactId: r.contactId,
    contact: contactById.get(r.contactId) ?? null,
    userId: r.userId,
    user: r.userId === null ? null : (userById.get(r.userId) ?? null),
    ticketId: r.ticketId,
    mediaPath: r.mediaPath,
    mediaName: r.mediaName,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    version: r.version,
  }));
}

export async function toScheduleDto(db: Database, companyId: number, row: ScheduleRow): Promise<ScheduledMessage> {
  return (await toScheduleDtos(db, companyId, [row]))[0]!;
}
