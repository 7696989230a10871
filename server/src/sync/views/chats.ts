// chat/<id>: the internal chats the user is a member of, with every member's unread count and
// name; chatMessage/<chatId>/<id>: the most recent messages of those chats. Member rows and names
// are part of a chat's value, so they are folded into its version.
import type { SyncedChat, SyncedChatMessage } from '@zapdesk/sync/keys';
import { sql } from 'kysely';
import type { Tenant } from '../../db/tenant.ts';
import { chunk, defineView, type RowId, type ViewContext } from './types.ts';

/** Older messages stay on REST (GET /chats/{id}/messages). */
export const RECENT_CHAT_MESSAGES = 50;

async function findMemberChatIds(t: Tenant, userId: number): Promise<number[]> {
  const rows = await t.selectFrom('chatUsers').select('chatUsers.chatId').where('chatUsers.userId', '=', userId).execute();
  return rows.map((r) => r.chatId);
}

export const chatsView = defineView({
  name: 'chat',
  tables: ['chats', 'chat_users', 'users'],
  prefix: 'chat',
  audience: (actor) => `user:${actor.userId}`,
  async listVersions({ t, actor }) {
    const ids = await findMemberChatIds(t, actor.userId);
    const out: { id: RowId; version: string }[] = [];
    for (const part of chunk(ids)) {
      const rows = await t
        .selectFrom('chats')
        .innerJoin('chatUsers', 'chatUsers.chatId', 'chats.id')
        .innerJoin('users', 'users.id', 'chatUsers.userId')
        .select((eb) => [
          'chats.id',
          'chats.version',
          eb.fn.count<number>('chatUsers.userId').as('members'),
          eb.fn.sum<number>('chatUsers.version').as('memberVersions'),
          eb.fn.sum<number>('users.version').as('userVersions'),
        ])
        .where('chats.id', 'in', part)
        .groupBy(['chats.id', 'chats.version'])
        .execute();
      for (const r of rows) out.push({ id: r.id, version: `${r.version}:${Number(r.members)}.${Number(r.memberVersions)}.${Number(r.userVersions)}` });
    }
    return out;
  },
  async getValues({ t }, ids) {
    const out: { id: RowId; value: SyncedChat }[] = [];
    for (const part of chunk(ids as number[])) {
      const chats = await t.selectFrom('chats').selectAll('chats').where('chats.id', 'in', part).execute();
      const members = await t
        .selectFrom('chatUsers')
        .innerJoin('users', 'users.id', 'chatUsers.userId')
        .select(['chatUsers.chatId', 'chatUsers.userId', 'chatUsers.unreads', 'users.name'])
        .where('chatUsers.chatId', 'in', part)
        .orderBy('users.name')
        .execute();
      for (const c of chats) {
        const users = members.filter((m) => m.chatId === c.id).map((m) => ({ userId: m.userId, unreads: m.unreads, user: { id: m.userId, name: m.name } }));
        out.push({
          id: c.id,
          value: { id: c.id, uuid: c.uuid, title: c.title, ownerId: c.ownerId, lastMessage: c.lastMessage, createdAt: c.createdAt, updatedAt: c.updatedAt, users },
        });
      }
    }
    return out;
  },
});

/** The recent messages of the member's chats, with the sender's version folded in (their name rides along). */
async function listRecentMessages({ db, t, actor }: ViewContext) {
  const chatIds = await findMemberChatIds(t, actor.userId);
  if (chatIds.length === 0) return [];
  const out: { id: RowId; version: string }[] = [];
  for (const part of chunk(chatIds)) {
    const ranked = t
      .selectFrom('chatMessages')
      .select([
        'chatMessages.id',
        'chatMessages.chatId',
        'chatMessages.version',
        'chatMessages.senderId',
        sql<number>`row_number() over (partition by chat_messages.chat_id order by chat_messages.created_at desc, chat_messages.id desc)`.as('rn'),
      ])
      .where('chatMessages.chatId', 'in', part)
      .as('ranked');
    const rows = await db
      .selectFrom(ranked)
      .leftJoin('users', 'users.id', 'ranked.senderId')
      .select(['ranked.id', 'ranked.chatId', 'ranked.version', 'users.version as senderVersion'])
      .where('ranked.rn', '<=', RECENT_CHAT_MESSAGES)
      .execute();
    for (const r of rows) out.push({ id: `${r.chatId}/${r.id}`, version: `${r.version}:${r.senderVersion ?? 0}` });
  }
  return out;
}

export const chatMessagesView = defineView({
  name: 'chatMessage',
  tables: ['chat_messages', 'chat_users', 'users'],
  prefix: 'chatMessage',
  audience: (actor) => `user:${actor.userId}`,
  listVersions: listRecentMessages,
  async getValues({ t }, ids) {
    const messageIds = ids.map((id) => Number(String(id).split('/')[1]));
    const out: { id: RowId; value: SyncedChatMessage }[] = [];
    for (const part of chunk(messageIds)) {
      const rows = await t
        .selectFrom('chatMessages')
        .leftJoin('users', 'users.id', 'chatMessages.senderId')
        .selectAll('chatMessages')
        .select('users.name as senderName')
        .where('chatMessages.id', 'in', part)
        .execute();
      for (const r of rows) {
        out.push({
          id: `${r.chatId}/${r.id}`,
          value: {
            id: r.id,
            chatId: r.chatId,
            message: r.message,
            senderId: r.senderId,
            sender: r.senderId !== null && r.senderName !== null ? { id: r.senderId, name: r.senderName } : null,
            mediaPath: r.mediaPath,
            mediaName: r.mediaName,
            createdAt: r.createdAt,
          },
        });
      }
    }
    return out;
  },
});
