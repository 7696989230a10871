// Announcement routes: reads for everyone signed in, writes for the super-admin, each one `write()`
// (db/write.ts). A picture is stored inside its write (media/attachments.ts): disk and rows stay agreed.
import { announcementCreateSchema, announcementListQuerySchema, announcementUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth, requireSuper } from '../../auth/middleware.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { sendAttachment } from '../media/attachments.ts';
import { assertImage, limitUpload, readUpload } from '../media/uploads.ts';
import {
  createAnnouncement,
  deleteAnnouncement,
  findAnnouncementsPage,
  getAnnouncementRow,
  setAnnouncementMedia,
  updateAnnouncement,
} from './service.ts';
import { toAnnouncementDto } from './dto.ts';

/** Announcement pictures: png, jpg or jpeg, up to 10 MB. */
export const ANNOUNCEMENT_MEDIA_MAX_BYTES = 10 * 1024 * 1024;

export function announcementsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .on('GET', ['/announcements', '/announcements/'], auth, async (c) => {
      const query = parseQuery(c, announcementListQuerySchema);
      return c.json(await findAnnouncementsPage(deps.db, c.get('actor'), query.searchParam, query.pageNumber));
    })
    .get('/announcements/:id', auth, async (c) => c.json(toAnnouncementDto(await getAnnouncementRow(deps.db, c.get('actor'), parseId(c, 'id')))))
    .on('POST', ['/announcements', '/announcements/'], auth, requireSuper, async (c) => {
      const input = await parseBody(c, announcementCreateSchema);
      return c.json(await write(deps, (tx) => createAnnouncement(tx, c.get('actor'), input)), 201);
    })
    .put('/announcements/:id', auth, requireSuper, async (c) => {
      const id = parseId(c, 'id');
      const input = await parseBody(c, announcementUpdateSchema);
      return c.json(await write(deps, (tx) => updateAnnouncement(tx, c.get('actor'), id, input)));
    })
    .delete('/announcements/:id', auth, requireSuper, async (c) => {
      const id = parseId(c, 'id');
      await write(deps, (tx) => deleteAnnouncement(tx, c.get('actor'), id));
      return c.json({ message: 'Announcement deleted' });
    })
    .get('/announcements/:id/media', auth, async (c) => {
      const row = await getAnnouncementRow(deps.db, c.get('actor'), parseId(c, 'id'));
      return sendAttachment(deps.config.mediaDir, row.mediaPath, row.mediaName);
    })
    .post('/announcements/:id/media-upload', auth, requireSuper, limitUpload(ANNOUNCEMENT_MEDIA_MAX_BYTES), async (c) => {
      const id = parseId(c, 'id');
      const actor = c.get('actor');
      // Refused before the body is read: a 404 does not wait for the upload.
      await getAnnouncementRow(deps.db, actor, id);
      const { file } = await readUpload(c, ANNOUNCEMENT_MEDIA_MAX_BYTES);
      assertImage(file);
      return c.json(await write(deps, (tx) => setAnnouncementMedia(tx, actor, id, file)));
    })
    .delete('/announcements/:id/media-upload', auth, requireSuper, async (c) => {
      const id = parseId(c, 'id');
      return c.json(await write(deps, (tx) => setAnnouncementMedia(tx, c.get('actor'), id, null)));
    });
}
