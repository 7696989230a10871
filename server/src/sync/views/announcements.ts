// announcement/<id>: the platform's active announcements (the super-admin: all of them). They are
// written by the super-admin into their own company and read by every company, so their changes
// count under the platform's counter (company 0, migration 20261122T040000), which every company's
// pull reads: the listing is cached per company until an announcement changes.
import type { SyncedAnnouncement } from '@zapdesk/sync/keys';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import { chunk, defineView, type RowId } from './types.ts';
import { toAnnouncementDto } from '../../modules/announcements/service.ts';

// Platform-wide rows: deliberately not company-filtered (see modules/announcements/service.ts).
const readable = (db: Database, actor: Actor) => db.selectFrom('announcements').$if(!actor.super, (q) => q.where('announcements.status', '=', 1));

export const announcementsView = defineView({
  name: 'announcement',
  prefix: 'announcement',
  tables: ['announcements'],
  audience: (actor) => (actor.super ? 'super' : ''),
  listVersions: ({ db, actor }) => readable(db, actor).select(['announcements.id', 'announcements.version']).execute(),
  async getValues({ db, actor }, ids) {
    const out: { id: RowId; value: SyncedAnnouncement }[] = [];
    for (const part of chunk(ids as number[])) {
      const rows = await readable(db, actor).selectAll('announcements').where('announcements.id', 'in', part).execute();
      for (const r of rows) {
        out.push({ id: r.id, value: toAnnouncementDto(r) });
      }
    }
    return out;
  },
});
