// GET /media/<companyId>/tickets/<ticketId>/<file>: a ticket's file, for users who may see the
// ticket. Another company's path answers 404, as if it did not exist; outside the view, 403.
// A link signed by the server (`?exp=&sig=`, assistants/context.ts `signedMediaUrl`: what webhook
// receivers get) opens that one file without signing in until it expires.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { AppError } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { requireAuth } from '../../auth/middleware.ts';
import { mediaSignature } from '../../assistants/context.ts';
import { getVisibleTicket } from '../tickets/service.ts';
import { mimeOfPath, resolveMediaFile } from './storage.ts';

const FILE_NAME = /^[A-Za-z0-9._-]{1,200}$/;

/** Whether the request carries a valid, unexpired signature for exactly this file. */
function signedFor(deps: AppDeps, relPath: string, exp: string | undefined, sig: string | undefined): boolean {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp) || Number(exp) * 1000 < Date.now()) return false;
  const expected = Buffer.from(mediaSignature(deps.config.dataKey, relPath, Number(exp)));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function mediaRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const signedOrAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
    const { companyId, ticketId, file } = c.req.param() as Record<string, string>;
    if (signedFor(deps, `${companyId}/tickets/${ticketId}/${file}`, c.req.query('exp'), c.req.query('sig'))) return next();
    return auth(c, next);
  };
  return new Hono<AppEnv>().get('/media/:companyId/tickets/:ticketId/:file', signedOrAuth, async (c) => {
    const { companyId, ticketId, file } = c.req.param();
    if (!/^\d{1,10}$/.test(companyId) || !/^\d{1,10}$/.test(ticketId) || !FILE_NAME.test(file)) throw new AppError('ERR_NOT_FOUND');
    const relPath = `${companyId}/tickets/${ticketId}/${file}`;
    const actor = c.get('actor') as AppEnv['Variables']['actor'] | undefined;
    if (actor) {
      if (String(actor.companyId) !== companyId) throw new AppError('ERR_NOT_FOUND');
      await getVisibleTicket(deps, actor, Number(ticketId));
    }
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
