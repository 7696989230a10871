import { quickMessageAllQuerySchema, quickMessageCreateSchema, quickMessageListQuerySchema, quickMessageUpdateSchema } from '@zapdesk/sync';
import { Hono, type Context } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth } from '../../auth/middleware.ts';
import { commitAndPoke } from '../tags/commit.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { assertNotDangerous, limitUpload, readUpload, removeMedia, sendMedia, storeMedia } from './media.ts';
import {
  createQuickMessage,
  deleteQuickMessage,
  findQuickMessagesPage,
  findUsableQuickMessages,
  getChangeableQuickMessage,
  getQuickMessageRow,
  toQuickMessageDto,
  updateQuickMessage,
} from './service.ts';

/** Attachments of quick messages: anything but executables and active web content, up to 20 MB. */
export const QUICK_MESSAGE_MEDIA_MAX_BYTES = 20 * 1024 * 1024;

// `userId` and `companyId` in the queries are what the web sends; the answer is always the
// caller's view (their company's shared messages and their own), so they change nothing.
export function quickMessagesRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const write = <T>(c: Context<AppEnv>, fn: (trx: AppDeps['db']) => Promise<T>) => commitAndPoke(deps, c.get('actor').companyId, fn);
  return new Hono<AppEnv>()
    .on('GET', ['/quick-messages', '/quick-messages/'], auth, async (c) => {
      const query = parseQuery(c, quickMessageListQuerySchema);
      return c.json(await findQuickMessagesPage(deps.db, c.get('actor'), query.searchParam, query.pageNumber));
    })
    .get('/quick-messages/list', auth, async (c) => {
      parseQuery(c, quickMessageAllQuerySchema);
      return c.json(await findUsableQuickMessages(deps.db, c.get('actor')));
    })
    .get('/quick-messages/:id', auth, async (c) => c.json(toQuickMessageDto(await getQuickMessageRow(deps.db, c.get('actor'), parseId(c, 'id')))))
    .on('POST', ['/quick-messages', '/quick-messages/'], auth, async (c) => {
      const input = await parseBody(c, quickMessageCreateSchema);
      return c.json(await write(c, (trx) => createQuickMessage(trx, c.get('actor'), input)), 201);
    })
    .put('/quick-messages/:id', auth, async (c) => {
      const id = parseId(c, 'id');
      const input = await parseBody(c, quickMessageUpdateSchema);
      return c.json(await write(c, (trx) => updateQuickMessage(trx, c.get('actor'), id, input)));
    })
    .delete('/quick-messages/:id', auth, async (c) => {
      const id = parseId(c, 'id');
      const mediaPath = await write(c, (trx) => deleteQuickMessage(trx, c.get('actor'), id));
      await removeMedia(deps.config.mediaDir, mediaPath);
      return c.json({ message: 'Quick message deleted' });
    })
    .get('/quick-messages/:id/media', auth, async (c) => {
      const row = await getQuickMessageRow(deps.db, c.get('actor'), parseId(c, 'id'));
      return sendMedia(deps.config.mediaDir, row.mediaPath, row.mediaName);
    })
    .post('/quick-messages/:id/media-upload', auth, limitUpload(QUICK_MESSAGE_MEDIA_MAX_BYTES), async (c) => {
      const id = parseId(c, 'id');
      const actor = c.get('actor');
      await getChangeableQuickMessage(deps.db, actor, id);
      const { file } = await readUpload(c, QUICK_MESSAGE_MEDIA_MAX_BYTES);
      assertNotDangerous(file);
      // The file is written first and removed again if the row cannot take it: never a row
      // pointing at nothing, never an orphan file after an error.
      const mediaPath = await storeMedia(deps.config.mediaDir, actor.companyId, 'quick-messages', file);
      let previous: string | null = null;
      try {
        const updated = await write(c, async (trx) => {
          previous = (await getChangeableQuickMessage(trx, actor, id)).mediaPath;
          return updateQuickMessage(trx, actor, id, { mediaPath, mediaName: file.name });
        });
        await removeMedia(deps.config.mediaDir, previous);
        return c.json(updated);
      } catch (err) {
        await removeMedia(deps.config.mediaDir, mediaPath);
        throw err;
      }
    })
    .delete('/quick-messages/:id/media-upload', auth, async (c) => {
      const id = parseId(c, 'id');
      const actor = c.get('actor');
      let previous: string | null = null;
      const updated = await write(c, async (trx) => {
        previous = (await getChangeableQuickMessage(trx, actor, id)).mediaPath;
        return updateQuickMessage(trx, actor, id, { mediaPath: null, mediaName: null });
      });
      await removeMedia(deps.config.mediaDir, previous);
      return c.json(updated);
    });
}
