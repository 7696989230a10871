// schedule/<id>: admins see every schedule of the company, other users the ones they created (the
// same rule as GET /schedules). The value carries the contact's name and number, so the version
// folds in the contact's: renaming the contact re-sends its schedules.
import type { SyncedSchedule } from '@zapdesk/sync/keys';
import { isCompanyAdmin } from '@zapdesk/sync';
import { chunk, defineView, type RowId } from './types.ts';

export const schedulesView = defineView({
  name: 'schedule',
  prefix: 'schedule',
  tables: ['schedules', 'contacts'],
  audience: (actor) => (isCompanyAdmin(actor) ? 'admin' : `user:${actor.userId}`),
  async listVersions({ t, actor }) {
    let query = t
      .selectFrom('schedules')
      .innerJoin('contacts', 'contacts.id', 'schedules.contactId')
      .select(['schedules.id', 'schedules.version', 'contacts.version as contactVersion']);
    if (!isCompanyAdmin(actor)) query = query.where('schedules.userId', '=', actor.userId);
    const rows = await query.execute();
    return rows.map((r) => ({ id: r.id, version: `${r.version}:${r.contactVersion}` }));
  },
  async getValues({ t }, ids) {
    const out: { id: RowId; value: SyncedSchedule }[] = [];
    for (const part of chunk(ids as number[])) {
      const rows = await t
        .selectFrom('schedules')
        .innerJoin('contacts', 'contacts.id', 'schedules.contactId')
        .selectAll('schedules')
        .select(['contacts.name as contactName', 'contacts.number as contactNumber'])
        .where('schedules.id', 'in', part)
        .execute();
      for (const r of rows) {
        out.push({
          id: r.id,
          value: {
            id: r.id,
            body: r.body,
            status: r.status,
            sendAt: r.sendAt,
            sentAt: r.sentAt,
            error: r.error,
            contactId: r.contactId,
            contact: { id: r.contactId, name: r.contactName, number: r.contactNumber },
            userId: r.userId,
            ticketId: r.ticketId,
            mediaPath: r.mediaPath,
            mediaName: r.mediaName,
            updatedAt: r.updatedAt,
          },
        });
      }
    }
    return out;
  },
});
