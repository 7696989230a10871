// announcement/<id>: the platform's active announcements (the super-admin: all of them), as GET
// /announcements/{id} answers them (the one mapper, dto.ts). They are written by the super-admin into
// their own company and read by every company, so their changes count under the platform's counter
// (company 0, migration 20261122T040000), which every company's pull reads: the listing is cached per
// company until an announcement changes.
import type { Announcement } from '@zapdesk/sync';
import { chunk, defineView, type RowId } from '../../sync/views/types.ts';
import { toAnnouncementDto } from './dto.ts';
import { selectAnnouncements } from './service.ts';

export const announcementsView = defineView({
  name: 'announcement',
  prefix: 'announcement',
  tables: ['announcements'],
  audience: (actor) => (actor.super ? 'super' : ''),
  // Platform-wide rows: deliberately not company-filtered (see service.ts), the same rule as REST.
  listVersions: ({ db, actor }) => selectAnnouncements(db, actor).select(['announcements.id', 'announcements.version']).execute(),
  async getValues({ db, actor }, ids) {
    const out: { id: RowId; value: Announcement }[] = [];
    for (const part of chunk(ids as number[])) {
      const rows = await selectAnnouncements(db, actor).selectAll('announcements').where('announcements.id', 'in', part).execute();
      for (const r of rows) out.push({ id: r.id, value: toAnnouncementDto(r) });
    }
    return out;
  },
});
