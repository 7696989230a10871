// File lists over REST (spec/03 §7; README.md). Each write is one transaction opened here
// (db/write.ts); the files it stores or drops follow its outcome (service.ts). Fixed paths come
// before /files/:id.
import { fileListCreateSchema, fileListQuerySchema, fileListUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth, requirePermission } from '../../auth/middleware.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { sendAttachment } from '../media/attachments.ts';
import { limitUpload } from '../media/uploads.ts';
import { storedFileName } from './dto.ts';
import { findFileListsPage, findFileOptionRow } from './queries.ts';
import { attachFileOptionUploads, createFileList, deleteFileList, fileListNotFound, getFileList, updateFileList } from './service.ts';
import { MAX_FILE_LIST_UPLOAD_BYTES, readOptionUploads } from './upload.ts';

// The files screen sits in the admin area (with campaigns, which pick a file list).
export function filesRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const admin = requirePermission('drawer-admin-items:view');
  return new Hono<AppEnv>()
    .on('GET', ['/files', '/files/'], auth, admin, async (c) => {
      const query = parseQuery(c, fileListQuerySchema);
      return c.json(await findFileListsPage(deps.db, c.get('actor').companyId, query.searchParam, query.pageNumber));
    })
    .post('/files/uploadList/:id', auth, admin, limitUpload(MAX_FILE_LIST_UPLOAD_BYTES), async (c) => {
      const fileId = parseId(c, 'id');
      const actor = c.get('actor');
      // Refused before the body is read: another company's list does not wait for its upload.
      await getFileList(deps.db, actor, fileId);
      const uploads = await readOptionUploads(c);
      return c.json(await write(deps, (tx) => attachFileOptionUploads(tx, actor, fileId, uploads)));
    })
    .get('/files/:id', auth, admin, async (c) => c.json(await getFileList(deps.db, c.get('actor'), parseId(c, 'id'))))
    .get('/files/:id/options/:optionId/media', auth, admin, async (c) => {
      const option = await findFileOptionRow(deps.db, c.get('actor').companyId, parseId(c, 'id'), parseId(c, 'optionId'));
      if (!option) throw fileListNotFound();
      return sendAttachment(deps.config.mediaDir, option.path || null, option.path ? storedFileName(option.path) : null);
    })
    .on('POST', ['/files', '/files/'], auth, admin, async (c) => {
      const input = await parseBody(c, fileListCreateSchema);
      return c.json(await write(deps, (tx) => createFileList(tx, c.get('actor'), input)), 201);
    })
    .put('/files/:id', auth, admin, async (c) => {
      const fileId = parseId(c, 'id');
      const input = await parseBody(c, fileListUpdateSchema);
      return c.json(await write(deps, (tx) => updateFileList(tx, c.get('actor'), fileId, input)));
    })
    .delete('/files/:id', auth, admin, async (c) => {
      const fileId = parseId(c, 'id');
      await write(deps, (tx) => deleteFileList(tx, c.get('actor'), fileId));
      return c.json({ message: 'File list deleted' });
    });
}
