// chat/<id>: the internal chats the user is a member of, with every member's unread count and
// name; chatMessage/<chatId>/<id>: the most recent messages of those chats. Values are the REST
// answers (dto.ts). Member rows and names are part of a chat's value, so they are folded into its
// version. A company whose plan lacks the internal chat sees neither (REST refuses them too).
import type { Chat, ChatMessage } from '@zapdesk/sync';
import { sql } from 'kysely';
import { companyPlanAllows } from '../../auth/plan-gate.ts';
import type { Database } from '../../db/database.ts';
import type { Tenant } from '../../db/tenant.ts';
import { chunk, defineView, type RowId, type ViewContext } from '../../sync/views/types.ts';
import { selectChatMessages, toChatDtos, toChatMessageDto } from './dto.ts';

/** Older messages stay on REST (GET /chats/{id}/messages). */
export const RECENT_CHAT_MESSAGES = 50;

/** The member's chats, none when the company's plan lacks the internal chat. */
async function findMemberChatIds(db: Database, t: Tenant, userId: number): Promise<number[]> {
  if (!(await companyPlanAllows(db, t.companyId, 'internalChat'))) return [];
  const rows = await t.selectFrom('chatUsers').select('chatUsers.chatId').where('chatUsers.userId', '=', userId).execute();
  return rows.map((r) => r.chatId);
}

export const chatsView = defineView({
  name: 'chat',
  tables: ['chats', 'chat_users', 'users', 'companies', 'plans'],
  prefix: 'chat',
  audience: (actor) => `user:${actor.userId}`,
  async listVersions({ db, t, actor }) {
    const ids = await findMemberChatIds(db, t, actor.userId);
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
  async getValues({ db, t, actor }, ids) {
    const out: { id: RowId; value: Chat }[] = [];
    for (const part of chunk(ids as number[])) {
      const rows = await t.selectFrom('chats').selectAll('chats').where('chats.id', 'in', part).execute();
      for (const chat of await toChatDtos(db, actor.companyId, rows)) out.push({ id: chat.id, value: chat });
    }
    return out;
  },
});

/** The recent messages of the member's chats, with the sender's version folded in (their name rides along). */
async function listRecentMessages({ db, t, actor }: ViewContext) {
  const chatIds = await findMemberChatIds(db, t, actor.userId);
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
  tables: ['chat_messages', 'chat_users', 'users', 'companies', 'plans'],
  prefix: 'chatMessage',
  audience: (actor) => `user:${actor.userId}`,
  listVersions: listRecentMessages,
  async getValues({ db, actor }, ids) {
    const messageIds = ids.map((id) => Number(String(id).split('/')[1]));
    const out: { id: RowId; value: ChatMessage }[] = [];
    for (const part of chunk(messageIds)) {
      const rows = await selectChatMessages(db, actor.companyId).where('chatMessages.id', 'in', part).execute();
      for (const r of rows) out.push({ id: `${r.chatId}/${r.id}`, value: toChatMessageDto(r) });
    }
    return out;
  },
});
