// The one announcement mapper (sync/src/domain/announcement.ts): GET /announcements(/{id}), the
// write answers and announcement/<id> all send this.
import type { Announcement } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Announcements } from '../../db/schema.ts';

export function toAnnouncementDto(r: Selectable<Announcements>): Announcement {
  return {
    id: r.id,
    title: r.title,
    text: r.text,
    priority: r.priority,
    status: r.status === 1,
    mediaPath: r.mediaPath,
    mediaName: r.mediaName,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
