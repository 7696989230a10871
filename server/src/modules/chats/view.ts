// chat/<id>: the internal chats the user is a member of, with every member's unread count and
// name; chatMessage/<chatId>/<id>: the most recent messages of those chats. Values are the REST
// answers (dto.ts). Member rows and names are part of a chat's value, so they are folded into its
// version. A company whose plan lacks the internal chat sees neither (REST refuses them too).
import type { Chat, ChatMessage } from '@zapdesk/sync';
import { sql, type RawBuilder } from 'kysely';
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

// Chats per statement: SQLite allows 500 terms in a compound select.
const RECENT_CHUNK = 100;

/**
 * The newest messages of each chat, each read from the (company, chat, created_at) index newest
 * first and stopped there: a long-lived team chat's history is never read (SQLite: limited selects
 * joined by UNION ALL; PostgreSQL: a LATERAL join), with the sender's version folded in.
 */
function recentRows({ db, dialect, actor }: ViewContext, chatIds: number[]) {
  const newest = (chat: RawBuilder<unknown>) =>
    sql`select id, chat_id, version, sender_id from chat_messages where company_id = ${actor.companyId} and chat_id = ${chat} order by created_at desc, id desc limit ${RECENT_CHAT_MESSAGES}`;
  const recent =
    dialect === 'postgres'
      ? sql`(select r.* from unnest(${sql.val(chatIds)}::int[]) as c(chat_id) cross join lateral (${newest(sql.ref('c.chat_id'))}) r)`
      : sql`(${sql.join(chatIds.map((id) => sql`select * from (${newest(sql.val(id))})`), sql` union all `)})`;
  return sql<{ id: number; chat_id: number; version: number; sender_version: number | null }>`
    select m.id, m.chat_id, m.version, u.version as sender_version from ${recent} m left join users u on u.id = m.sender_id`.execute(db.withoutPlugins());
}

/** The recent messages of the member's chats, with the sender's version folded in (their name rides along). */
async function listRecentMessages(ctx: ViewContext) {
  const chatIds = await findMemberChatIds(ctx.db, ctx.t, ctx.actor.userId);
  const out: { id: RowId; version: string }[] = [];
  for (const part of chunk(chatIds, RECENT_CHUNK)) {
    const rows = await recentRows(ctx, part);
    for (const r of rows.rows) out.push({ id: `${r.chat_id}/${r.id}`, version: `${r.version}:${r.sender_version ?? 0}` });
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
