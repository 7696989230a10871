import { messageCreateSchema, messageListQuerySchema, messageMultipartSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth } from '../../auth/middleware.ts';
import { parseBody, parseId, parseQuery, parseWith } from '../../http/validate.ts';
import { isMultipart, messageUploadLimit, readUploads } from '../media/uploads.ts';
import { deleteMessage, getWritableTicket, listMessages, sendAgentMessages } from './service.ts';

export function messagesRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .get('/messages/:ticketId', auth, async (c) => {
      const ticketId = parseId(c, 'ticketId', 'ERR_NO_TICKET_FOUND');
      const { pageNumber } = parseQuery(c, messageListQuerySchema);
      return c.json(await listMessages(deps, c.get('actor'), ticketId, pageNumber));
    })
    // JSON answers the message; multipart answers {messages}, one per file.
    .post('/messages/:ticketId', auth, messageUploadLimit, async (c) => {
      const actor = c.get('actor');
      const ticket = await getWritableTicket(deps, actor, parseId(c, 'ticketId', 'ERR_NO_TICKET_FOUND'));
      if (isMultipart(c)) {
        const { fields, uploads } = await readUploads(c);
        const input = parseWith(messageMultipartSchema, fields);
        const messages = await sendAgentMessages(deps, actor, ticket, { body: input.body, quotedMsgId: input.quotedMsg, signMessage: input.signMessage, uploads });
        return c.json({ messages }, 201);
      }
      const input = await parseBody(c, messageCreateSchema);
      const [message] = await sendAgentMessages(deps, actor, ticket, { body: input.body, quotedMsgId: input.quotedMsg, signMessage: input.signMessage, uploads: [] });
      return c.json(message, 201);
    })
    .delete('/messages/:id', auth, async (c) => {
      return c.json(await deleteMessage(deps, c.get('actor'), parseId(c, 'id', 'ERR_NOT_FOUND')));
    });
}
