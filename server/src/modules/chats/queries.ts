// Reads of internal chats: a chat is visible to its members only; anyone else gets 404, as they
// would for another company's chat. What a chat and a message look like on the wire is dto.ts.
import { AppError, PAGE_SIZE, type Chat, type ChatMessage } from '@zapdesk/sync';
import { type Selectable } from 'kysely';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import type { Chats } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import { likeFolded } from '../../db/like.ts';
import { selectChatMessages, toChatDtos, toChatMessageDto } from './dto.ts';

export type ChatRef = { id: number } | { uuid: string };

/** The chat if the actor is a member of it; ERR_NOT_FOUND otherwise. */
export async function getMemberChat(db: Database, actor: Actor, ref: ChatRef): Promise<Selectable<Chats>> {
  const row = await tenant(db, actor.companyId)
    .selectFrom('chats')
    .innerJoin('chatUsers', (j) => j.onRef('chatUsers.chatId', '=', 'chats.id').on('chatUsers.userId', '=', actor.userId))
    .selectAll('chats')
    .$if('id' in ref, (q) => q.where('chats.id', '=', (ref as { id: number }).id))
    .$if('uuid' in ref, (q) => q.where('chats.uuid', '=', (ref as { uuid: string }).uuid))
    .executeTakeFirst();
  if (!row) throw new AppError('ERR_NOT_FOUND', 'Chat not found.');
  return row;
}

export async function getChatDto(db: Database, actor: Actor, ref: ChatRef): Promise<Chat> {
  const [dto] = await toChatDtos(db, actor.companyId, [await getMemberChat(db, actor, ref)]);
  return dto!;
}

/** GET /chats: the actor's chats, most recently active first, searched over the title. */
export async function findChatsPage(db: Database, actor: Actor, search: string, pageNumber: number) {
  const rows = await tenant(db, actor.companyId)
    .selectFrom('chats')
    .innerJoin('chatUsers', (j) => j.onRef('chatUsers.chatId', '=', 'chats.id').on('chatUsers.userId', '=', actor.userId))
    .selectAll('chats')
    .$if(search !== '', (q) => q.where((eb) => likeFolded(eb.ref('chats.title'), search)))
    .orderBy('chats.updatedAt', 'desc')
    .orderBy('chats.id', 'desc')
    .limit(PAGE_SIZE + 1)
    .offset((pageNumber - 1) * PAGE_SIZE)
    .execute();
  return { records: await toChatDtos(db, actor.companyId, rows.slice(0, PAGE_SIZE)), hasMore: rows.length > PAGE_SIZE };
}

/** GET /chats/{id}/messages: newest first, one page; the client loads older pages when scrolled up. */
export async function findChatMessagesPage(db: Database, actor: Actor, chatId: number, pageNumber: number) {
  await getMemberChat(db, actor, { id: chatId });
  const rows = await selectChatMessages(db, actor.companyId)
    .where('chatMessages.chatId', '=', chatId)
    .orderBy('chatMessages.createdAt', 'desc')
    .orderBy('chatMessages.id', 'desc')
    .limit(PAGE_SIZE + 1)
    .offset((pageNumber - 1) * PAGE_SIZE)
    .execute();
  return { records: rows.slice(0, PAGE_SIZE).map(toChatMessageDto), hasMore: rows.length > PAGE_SIZE };
}

export async function getChatMessage(db: Database, companyId: number, id: number): Promise<ChatMessage> {
  return toChatMessageDto(await selectChatMessages(db, companyId).where('chatMessages.id', '=', id).executeTakeFirstOrThrow());
}
