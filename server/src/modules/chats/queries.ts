// Reads of internal chats: a chat is visible to its members only; anyone else gets 404, as they
// would for another company's chat.
import { AppError, PAGE_SIZE, type ChatDto, type ChatMemberDto, type ChatMessageDto } from '@zapdesk/sync';
import { sql, type Selectable } from 'kysely';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import type { Chats } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import { toLikePattern } from '../../db/like.ts';

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

async function findMembers(db: Database, companyId: number, chatIds: number[]): Promise<Map<number, ChatMemberDto[]>> {
  const byChat = new Map<number, ChatMemberDto[]>();
  if (chatIds.length === 0) return byChat;
  const rows = await tenant(db, companyId)
    .selectFrom('chatUsers')
    .innerJoin('users', 'users.id', 'chatUsers.userId')
    .select(['chatUsers.chatId', 'chatUsers.userId', 'chatUsers.unreads', 'users.name'])
    .where('chatUsers.chatId', 'in', chatIds)
    .orderBy('users.name')
    .orderBy('users.id')
    .execute();
  for (const r of rows) {
    const list = byChat.get(r.chatId) ?? [];
    list.push({ userId: r.userId, unreads: r.unreads, user: { id: r.userId, name: r.name } });
    byChat.set(r.chatId, list);
  }
  return byChat;
}

export async function toChatDtos(db: Database, companyId: number, rows: Selectable<Chats>[]): Promise<ChatDto[]> {
  const members = await findMembers(db, companyId, rows.map((r) => r.id));
  return rows.map((r) => ({
    id: r.id,
    uuid: r.uuid,
    title: r.title,
    ownerId: r.ownerId,
    lastMessage: r.lastMessage,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    users: members.get(r.id) ?? [],
  }));
}

export async function getChatDto(db: Database, actor: Actor, ref: ChatRef): Promise<ChatDto> {
  const [dto] = await toChatDtos(db, actor.companyId, [await getMemberChat(db, actor, ref)]);
  return dto!;
}

/** GET /chats: the actor's chats, most recently active first, searched over the title. */
export async function findChatsPage(db: Database, actor: Actor, search: string, pageNumber: number) {
  const rows = await tenant(db, actor.companyId)
    .selectFrom('chats')
    .innerJoin('chatUsers', (j) => j.onRef('chatUsers.chatId', '=', 'chats.id').on('chatUsers.userId', '=', actor.userId))
    .selectAll('chats')
    .$if(search !== '', (q) => q.where((eb) => sql<boolean>`lower(${eb.ref('chats.title')}) like ${toLikePattern(search)} escape '\\'`))
    .orderBy('chats.updatedAt', 'desc')
    .orderBy('chats.id', 'desc')
    .limit(PAGE_SIZE + 1)
    .offset((pageNumber - 1) * PAGE_SIZE)
    .execute();
  return { records: await toChatDtos(db, actor.companyId, rows.slice(0, PAGE_SIZE)), hasMore: rows.length > PAGE_SIZE };
}

function selectMessages(db: Database, companyId: number) {
  return tenant(db, companyId)
    .selectFrom('chatMessages')
    .leftJoin('users', (j) => j.onRef('users.id', '=', 'chatMessages.senderId').on('users.companyId', '=', companyId))
    .select([
      'chatMessages.id',
      'chatMessages.chatId',
      'chatMessages.message',
      'chatMessages.senderId',
      'chatMessages.mediaPath',
      'chatMessages.mediaName',
      'chatMessages.createdAt',
      'users.name as senderName',
    ]);
}

type MessageRow = Awaited<ReturnType<ReturnType<typeof selectMessages>['executeTakeFirstOrThrow']>>;

function toMessageDto({ senderName, ...r }: MessageRow): ChatMessageDto {
  return { ...r, sender: r.senderId !== null && senderName !== null ? { id: r.senderId, name: senderName } : null };
}

/** GET /chats/{id}/messages: newest first, one page; the client loads older pages when scrolled up. */
export async function findChatMessagesPage(db: Database, actor: Actor, chatId: number, pageNumber: number) {
  await getMemberChat(db, actor, { id: chatId });
  const rows = await selectMessages(db, actor.companyId)
    .where('chatMessages.chatId', '=', chatId)
    .orderBy('chatMessages.createdAt', 'desc')
    .orderBy('chatMessages.id', 'desc')
    .limit(PAGE_SIZE + 1)
    .offset((pageNumber - 1) * PAGE_SIZE)
    .execute();
  return { records: rows.slice(0, PAGE_SIZE).map(toMessageDto), hasMore: rows.length > PAGE_SIZE };
}

export async function getChatMessage(db: Database, companyId: number, id: number): Promise<ChatMessageDto> {
  return toMessageDto(await selectMessages(db, companyId).where('chatMessages.id', '=', id).executeTakeFirstOrThrow());
}
