// GET /media/<companyId>/tickets/<ticketId>/<file>: a ticket's file, for users who may see the
// ticket. Another company's path answers 404, as if it did not exist; outside the view, 403.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { AppError } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth } from '../../auth/middleware.ts';
import { getVisibleTicket } from '../tickets/service.ts';
import { mimeOfPath, resolveMediaFile } from './storage.ts';

const FILE_NAME = /^[A-Za-z0-9._-]{1,200}$/;

export function mediaRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().get('/media/:companyId/tickets/:ticketId/:file', requireAuth(deps), async (c) => {
    const actor = c.get('actor');
    const { companyId, ticketId, file } = c.req.param();
    if (String(actor.companyId) !== companyId || !/^\d{1,10}$/.test(ticketId) || !FILE_NAME.test(file)) throw new AppError('ERR_NOT_FOUND');
    await getVisibleTicket(deps, actor, Number(ticketId));
    const relPath = `${companyId}/tickets/${ticketId}/${file}`;
    const abs = resolveMediaFile(deps.config.mediaDir, relPath);
    const info = abs ? await stat(abs).catch(() => undefined) : undefined;
    if (!abs || !info?.isFile()) throw new AppError('ERR_NOT_FOUND');
    return new Response(Readable.toWeb(createReadStream(abs)) as ReadableStream, {
      headers: {
        'content-type': mimeOfPath(relPath),
        'content-length': String(info.size),
        'cache-control': 'private, max-age=3600',
        'x-content-type-options': 'nosniff',
      },
    });
  });
}
