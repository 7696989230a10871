// Quick messages over REST (spec/02 §7) with their attachment; a write is one transaction opened
// here (db/write.ts), and the files it stores or drops follow its outcome (service.ts).
import { quickMessageAllQuerySchema, quickMessageCreateSchema, quickMessageListQuerySchema, quickMessageUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth } from '../../auth/middleware.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { sendAttachment } from '../media/attachments.ts';
import { assertImageIfNamedOne, assertNotDangerous, limitUpload, readUpload } from '../media/uploads.ts';
import { toQuickMessageDto } from './dto.ts';
import {
  createQuickMessage,
  deleteQuickMessage,
  findQuickMessagesPage,
  findUsableQuickMessages,
  getChangeableQuickMessage,
  getQuickMessageRow,
  setQuickMessageMedia,
  updateQuickMessage,
} from './service.ts';

/** Attachments of quick messages: anything but executables and active web content, up to 20 MB. */
export const QUICK_MESSAGE_MEDIA_MAX_BYTES = 20 * 1024 * 1024;

// `userId` and `companyId` in the queries are what the web sends; the answer is always the
// caller's view (their company's shared messages and their own), so they change nothing.
export function quickMessagesRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
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
      return c.json(await write(deps, (tx) => createQuickMessage(tx, c.get('actor'), input)), 201);
    })
    .put('/quick-messages/:id', auth, async (c) => {
      const id = parseId(c, 'id');
      const input = await parseBody(c, quickMessageUpdateSchema);
      return c.json(await write(deps, (tx) => updateQuickMessage(tx, c.get('actor'), id, input)));
    })
    .delete('/quick-messages/:id', auth, async (c) => {
      const id = parseId(c, 'id');
      await write(deps, (tx) => deleteQuickMessage(tx, c.get('actor'), id));
      return c.json({ message: 'Quick message deleted' });
    })
    .get('/quick-messages/:id/media', auth, async (c) => {
      const row = await getQuickMessageRow(deps.db, c.get('actor'), parseId(c, 'id'));
      return sendAttachment(deps.config.mediaDir, row.mediaPath, row.mediaName);
    })
    .post('/quick-messages/:id/media-upload', auth, limitUpload(QUICK_MESSAGE_MEDIA_MAX_BYTES), async (c) => {
      const id = parseId(c, 'id');
      const actor = c.get('actor');
      // Refused before the body is read: a 404 or 403 does not wait for a 20 MB upload.
      await getChangeableQuickMessage(deps.db, actor, id);
      const { file } = await readUpload(c, QUICK_MESSAGE_MEDIA_MAX_BYTES);
      assertNotDangerous(file);
      assertImageIfNamedOne(file);
      return c.json(await write(deps, (tx) => setQuickMessageMedia(tx, actor, id, file)));
    })
    .delete('/quick-messages/:id/media-upload', auth, async (c) => {
      const id = parseId(c, 'id');
      return c.json(await write(deps, (tx) => setQuickMessageMedia(tx, c.get('actor'), id, null)));
    });
}
