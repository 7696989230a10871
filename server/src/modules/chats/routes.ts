import { AppError, chatCreateSchema, chatListQuerySchema, chatMessageCreateSchema, chatMessagesQuerySchema, chatUpdateSchema } from '@zapdesk/sync';
import { Hono, type Context } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth } from '../../auth/middleware.ts';
import { requirePlan } from '../../auth/plan-gate.ts';
import { inSlices } from '../../db/slices.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { findChatMessagesPage, findChatsPage, getChatDto, type ChatRef } from './queries.ts';
import { assertChatOwner, createChat, createChatMessage, deleteChat, emptyChatSlice, markChatRead, updateChat } from './service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GET /chats/{id} takes the numeric id or the uuid (the web opens /chats/{uuid}). */
function parseChatRef(c: Context): ChatRef {
  const raw = c.req.param('id') ?? '';
  if (UUID.test(raw)) return { uuid: raw.toLowerCase() };
  if (/^\d+$/.test(raw)) return { id: parseId(c, 'id') };
  throw new AppError('ERR_NOT_FOUND', 'Chat not found.');
}

// Every route needs the plan's internal chat; a non-member gets 404 for any chat id.
export function chatsRoutes(deps: AppDeps) {
  const guard = [requireAuth(deps), requirePlan(deps, 'internalChat')] as const;
  return new Hono<AppEnv>()
    .on('GET', ['/chats', '/chats/'], ...guard, async (c) => {
      const query = parseQuery(c, chatListQuerySchema);
      return c.json(await findChatsPage(deps.db, c.get('actor'), query.searchParam, query.pageNumber));
    })
    .get('/chats/:id', ...guard, async (c) => c.json(await getChatDto(deps.db, c.get('actor'), parseChatRef(c))))
    .on('POST', ['/chats', '/chats/'], ...guard, async (c) => {
      const input = await parseBody(c, chatCreateSchema);
      return c.json(await write(deps, (tx) => createChat(tx, c.get('actor'), input)), 201);
    })
    .put('/chats/:id', ...guard, async (c) => {
      const chatId = parseId(c, 'id');
      const input = await parseBody(c, chatUpdateSchema);
      return c.json(await write(deps, (tx) => updateChat(tx, c.get('actor'), chatId, input)));
    })
    .delete('/chats/:id', ...guard, async (c) => {
      const chatId = parseId(c, 'id');
      const actor = c.get('actor');
      // Its owner only, checked before anything goes; then its messages a slice per write
      // (db/slices.ts), and the chat in a write of its own.
      await assertChatOwner(deps.db, actor, chatId);
      await inSlices(deps, (tx, limit) => emptyChatSlice(tx, actor.companyId, chatId, limit));
      await write(deps, (tx) => deleteChat(tx, actor, chatId));
      return c.json({ message: 'Chat deleted' });
    })
    .get('/chats/:id/messages', ...guard, async (c) => {
      const chatId = parseId(c, 'id');
      const { pageNumber } = parseQuery(c, chatMessagesQuerySchema);
      return c.json(await findChatMessagesPage(deps.db, c.get('actor'), chatId, pageNumber));
    })
    .post('/chats/:id/messages', ...guard, async (c) => {
      const chatId = parseId(c, 'id');
      const input = await parseBody(c, chatMessageCreateSchema);
      return c.json(await write(deps, (tx) => createChatMessage(tx, c.get('actor'), chatId, input)), 201);
    })
    .post('/chats/:id/read', ...guard, async (c) => {
      const chatId = parseId(c, 'id');
      return c.json(await write(deps, (tx) => markChatRead(tx, c.get('actor'), chatId)));
    });
}
