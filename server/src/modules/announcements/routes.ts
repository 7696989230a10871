import { announcementCreateSchema, announcementListQuerySchema, announcementUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth, requireSuper } from '../../auth/middleware.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { commitAndPokeAll } from '../tags/commit.ts';
import { assertImage, limitUpload, readUpload, removeMedia, sendMedia, storeMedia } from '../quick-messages/media.ts';
import { createAnnouncement, deleteAnnouncement, findAnnouncementsPage, getAnnouncementRow, toAnnouncementDto, updateAnnouncement } from './service.ts';

/** Announcement pictures: png, jpg or jpeg, up to 10 MB. */
export const ANNOUNCEMENT_MEDIA_MAX_BYTES = 10 * 1024 * 1024;

export function announcementsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const write = <T>(fn: (trx: AppDeps['db']) => Promise<T>) => commitAndPokeAll(deps, fn);
  return new Hono<AppEnv>()
    .on('GET', ['/announcements', '/announcements/'], auth, async (c) => {
      const query = parseQuery(c, announcementListQuerySchema);
      return c.json(await findAnnouncementsPage(deps.db, c.get('actor'), query.searchParam, query.pageNumber));
    })
    .get('/announcements/:id', auth, async (c) => c.json(toAnnouncementDto(await getAnnouncementRow(deps.db, c.get('actor'), parseId(c, 'id')))))
    .on('POST', ['/announcements', '/announcements/'], auth, requireSuper, async (c) => {
      const input = await parseBody(c, announcementCreateSchema);
      return c.json(await write((trx) => createAnnouncement(trx, c.get('actor'), input)), 201);
    })
    .put('/announcements/:id', auth, requireSuper, async (c) => {
      const id = parseId(c, 'id');
      const input = await parseBody(c, announcementUpdateSchema);
      return c.json(await write((trx) => updateAnnouncement(trx, c.get('actor'), id, input)));
    })
    .delete('/announcements/:id', auth, requireSuper, async (c) => {
      const id = parseId(c, 'id');
      const mediaPath = await write((trx) => deleteAnnouncement(trx, c.get('actor'), id));
      await removeMedia(deps.config.mediaDir, mediaPath);
      return c.json({ message: 'Announcement deleted' });
    })
    .get('/announcements/:id/media', auth, async (c) => {
      const row = await getAnnouncementRow(deps.db, c.get('actor'), parseId(c, 'id'));
      return sendMedia(deps.config.mediaDir, row.mediaPath, row.mediaName);
    })
    .post('/announcements/:id/media-upload', auth, requireSuper, limitUpload(ANNOUNCEMENT_MEDIA_MAX_BYTES), async (c) => {
      const id = parseId(c, 'id');
      const actor = c.get('actor');
      const current = await getAnnouncementRow(deps.db, actor, id);
      const { file } = await readUpload(c, ANNOUNCEMENT_MEDIA_MAX_BYTES);
      assertImage(file);
      const mediaPath = await storeMedia(deps.config.mediaDir, current.companyId, 'announcements', file);
      let previous: string | null = null;
      try {
        const updated = await write(async (trx) => {
          previous = (await getAnnouncementRow(trx, actor, id)).mediaPath;
          return updateAnnouncement(trx, actor, id, { mediaPath, mediaName: file.name });
        });
        await removeMedia(deps.config.mediaDir, previous);
        return c.json(updated);
      } catch (err) {
        await removeMedia(deps.config.mediaDir, mediaPath);
        throw err;
      }
    })
    .delete('/announcements/:id/media-upload', auth, requireSuper, async (c) => {
      const id = parseId(c, 'id');
      const actor = c.get('actor');
      let previous: string | null = null;
      const updated = await write(async (trx) => {
        previous = (await getAnnouncementRow(trx, actor, id)).mediaPath;
        return updateAnnouncement(trx, actor, id, { mediaPath: null, mediaName: null });
      });
      await removeMedia(deps.config.mediaDir, previous);
      return c.json(updated);
    });
}
