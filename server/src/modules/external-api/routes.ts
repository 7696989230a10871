import { externalMessageSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { bearerToken } from '../../auth/middleware.ts';
import { parseBody, parseWith } from '../../http/validate.ts';
import { isMultipart, messageUploadLimit, readUploads } from '../media/uploads.ts';
import { findConnectionByToken, sendExternalMessage } from './service.ts';

// Authenticated by the connection's token, not by a user session.
export function externalApiRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().post('/api/messages/send', messageUploadLimit, async (c) => {
    const connection = await findConnectionByToken(deps, bearerToken(c));
    if (isMultipart(c)) {
      const { fields, uploads } = await readUploads(c);
      const input = parseWith(externalMessageSchema, fields);
      return c.json(await sendExternalMessage(deps, connection, { ...input, uploads }));
    }
    const input = await parseBody(c, externalMessageSchema);
    return c.json(await sendExternalMessage(deps, connection, { ...input, uploads: [] }));
  });
}
