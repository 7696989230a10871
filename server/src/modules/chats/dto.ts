// The internal chat and chat message as every transport sends them (`chatSchema`,
// `chatMessageSchema` in @zapdesk/sync): the REST answers and chat/<id>, chatMessage/<chatId>/<id>
// of the client view all come from the functions here.
import type { Chat, ChatMember, ChatMessage } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Chats } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';

/** Every member of the chats with their unread count, by name (then id, so equal names keep one order). */
async function findMembers(db: Database, companyId: number, chatIds: number[]): Promise<Map<number, ChatMember[]>> {
  const byChat = new Map<number, ChatMember[]>();
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

/** Chat rows of one company → what the API sends, members included (one query whatever the count). */
export async function toChatDtos(db: Database, companyId: number, rows: Selectable<Chats>[]): Promise<Chat[]> {
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

/** Chat messages of one company with their sender's name; callers add the where and the order. */
export function selectChatMessages(db: Database, companyId: number) {
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

export type ChatMessageRow = Awaited<ReturnType<ReturnType<typeof selectChatMessages>['executeTakeFirstOrThrow']>>;

export function toChatMessageDto({ senderName, ...r }: ChatMessageRow): ChatMessage {
  return { ...r, sender: r.senderId !== null && senderName !== null ? { id: r.senderId, name: senderName } : null };
}
