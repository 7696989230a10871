import { AppError, messageCreateSchema, messageListQuerySchema, messageMultipartSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth } from '../../auth/middleware.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery, parseWith } from '../../http/validate.ts';
import { contactPeer, findContact } from '../contacts/queries.ts';
import { isMultipart, messageUploadLimit, readUploads } from '../media/uploads.ts';
import { toTicketDto } from '../tickets/dto.ts';
import { findDeletableMessage, listMessages, markMessageDeleted, markTicketRead, resendMessage, sendAgentMessages } from './service.ts';
import { toMessageDtos } from './dto.ts';
import { PENDING_WID_PREFIX } from './send.ts';

export function messagesRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .get('/messages/:ticketId', auth, async (c) => {
      const actor = c.get('actor');
      const ticketId = parseId(c, 'ticketId', 'ERR_NO_TICKET_FOUND');
      const { pageNumber } = parseQuery(c, messageListQuerySchema);
      const page = await listMessages(deps, actor, ticketId, pageNumber);
      const ticket = page.ticket.userId === actor.userId ? await write(deps, (tx) => markTicketRead(tx, page.ticket)) : page.ticket;
      return c.json({ messages: page.messages, hasMore: page.hasMore, ticket: await toTicketDto(deps.db, actor.companyId, ticket) });
    })
    // JSON answers the message; multipart answers {messages}, one per file.
    .post('/messages/:ticketId', auth, messageUploadLimit, async (c) => {
      const actor = c.get('actor');
      const ticketId = parseId(c, 'ticketId', 'ERR_NO_TICKET_FOUND');
      if (isMultipart(c)) {
        const { fields, uploads } = await readUploads(c);
        const input = parseWith(messageMultipartSchema, fields);
        const rows = await write(deps, (tx) => sendAgentMessages(tx, actor, ticketId, { body: input.body, quotedMsgId: input.quotedMsg, signMessage: input.signMessage, uploads, quickMessageId: input.quickMessageId }));
        return c.json({ messages: await toMessageDtos(deps.db, actor.companyId, rows) }, 201);
      }
      const input = await parseBody(c, messageCreateSchema);
      const rows = await write(deps, (tx) => sendAgentMessages(tx, actor, ticketId, { body: input.body, quotedMsgId: input.quotedMsg, signMessage: input.signMessage, uploads: [], quickMessageId: input.quickMessageId }));
      return c.json((await toMessageDtos(deps.db, actor.companyId, rows))[0], 201);
    })
    // A failed message goes back to its connection's queue (the chat's resend action).
    .post('/messages/:id/resend', auth, async (c) => {
      const actor = c.get('actor');
      const id = parseId(c, 'id', 'ERR_NOT_FOUND');
      return c.json(await write(deps, (tx) => resendMessage(tx, actor, id)));
    })
    // Deleted for everyone on the network first (outside any transaction), then recorded.
    .delete('/messages/:id', auth, async (c) => {
      const actor = c.get('actor');
      const { message, ticket } = await findDeletableMessage(deps, actor, parseId(c, 'id', 'ERR_NOT_FOUND'));
      if (message.isDeleted === 1) return c.json((await toMessageDtos(deps.db, actor.companyId, [message]))[0]);
      // Never received by WhatsApp (still queued, failed, or unconfirmed): there is nothing there to delete.
      if (message.wid.startsWith(PENDING_WID_PREFIX)) throw new AppError('ERR_FETCH_WAPP_MSG');
      if (!message.whatsappId) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
      // Deleted by the instance running the connection, whichever took this request (DESIGN §11).
      const channel = deps.sessions.queries(actor.companyId, message.whatsappId);
      const contact = await findContact(deps.db, actor.companyId, ticket.contactId);
      if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
      try {
        await channel.deleteMessage(contactPeer(contact), message.wid);
      } catch (err) {
        if (err instanceof AppError && (err.code === 'ERR_DELETE_WAPP_MSG' || err.code === 'ERR_WAPP_NOT_INITIALIZED')) throw err;
        throw new AppError('ERR_DELETE_WAPP_MSG', undefined, { details: { cause: err instanceof Error ? err.message : String(err) } });
      }
      return c.json(await write(deps, (tx) => markMessageDeleted(tx, actor, message.id)));
    });
}
