// Writes of internal chats (spec/02 §3-§5): the owner manages title and members; every member
// writes messages; each member has their own unread count. Each runs in the route's transaction
// (`Tx`, DESIGN §12) and pokes the company once it commits.
import { randomUUID } from 'node:crypto';
import { change, emit } from '../../events/emit.ts';
import { AppError, type Chat, type ChatCreateInput, type ChatMessage, type ChatMessageCreateInput, type ChatUpdateInput } from '@zapdesk/sync';
import type { Actor } from '../../context.ts';
import { nowIso, type Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { getChatDto, getChatMessage, getMemberChat } from './queries.ts';

/** The list shows a preview; the message itself keeps every character. */
const LAST_MESSAGE_PREVIEW = 255;

/** Members must be users of the company; anyone else reads as not found. */
async function assertCompanyUsers(db: Database, companyId: number, userIds: number[]) {
  const rows = await tenant(db, companyId).selectFrom('users').select('users.id').where('users.id', 'in', userIds).execute();
  const own = new Set(rows.map((r) => r.id));
  const foreign = userIds.filter((id) => !own.has(id));
  if (foreign.length > 0) throw new AppError('ERR_NO_USER_FOUND', `No user ${foreign.join(', ')} in this company.`);
}

/** Refuses anyone but the chat's owner (a member: 403; anyone else, another company's chat: 404). */
export async function assertChatOwner(db: Database, actor: Actor, chatId: number): Promise<void> {
  await getOwnedChat(db, actor, chatId);
}

/**
 * One slice of a chat's delete, run before its write once the owner was checked (assertChatOwner):
 * up to `limit` of its messages deleted; answers how many. In the delete's one write, 100,000 of them
 * held SQLite's writer 0.34 s, every company waiting. Another company's chat id matches none.
 */
export async function emptyChatSlice(tx: Tx, companyId: number, chatId: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  // The ids first (db/slices.ts says why).
  const ids = (await t.selectFrom('chatMessages').select('chatMessages.id').where('chatMessages.chatId', '=', chatId).limit(limit).execute()).map((r) => r.id);
  if (ids.length === 0) return 0;
  await t.deleteFrom('chatMessages').where('chatMessages.id', 'in', ids).execute();
  tx.effects.poke(companyId);
  return ids.length;
}

async function getOwnedChat(db: Database, actor: Actor, chatId: number) {
  const chat = await getMemberChat(db, actor, { id: chatId });
  if (chat.ownerId !== actor.userId) throw new AppError('ERR_NO_PERMISSION', 'Only the owner of the chat may change it.');
  return chat;
}

export async function createChat(tx: Tx, actor: Actor, input: ChatCreateInput): Promise<Chat> {
  const { db } = tx;
  const memberIds = [...new Set([actor.userId, ...input.users])];
  await assertCompanyUsers(db, actor.companyId, memberIds);
  const t = tenant(db, actor.companyId);
  const { id } = await t
    .insertInto('chats', { uuid: randomUUID(), title: input.title, ownerId: actor.userId })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.insertInto('chatUsers', memberIds.map((userId) => ({ chatId: id, userId }))).execute();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'chat', 'create', id));
  return getChatDto(db, actor, { id });
}

/** PUT /chats/{id}: new title and/or members; the owner always stays, kept members keep their unreads. */
export async function updateChat(tx: Tx, actor: Actor, chatId: number, input: ChatUpdateInput): Promise<Chat> {
  const { db } = tx;
  await getOwnedChat(db, actor, chatId);
  const t = tenant(db, actor.companyId);
  if (input.users) {
    const wanted = [...new Set([actor.userId, ...input.users])];
    await assertCompanyUsers(db, actor.companyId, wanted);
    const current = (await t.selectFrom('chatUsers').select('chatUsers.userId').where('chatUsers.chatId', '=', chatId).execute()).map((r) => r.userId);
    const removed = current.filter((id) => !wanted.includes(id));
    const added = wanted.filter((id) => !current.includes(id));
    if (removed.length > 0) await t.deleteFrom('chatUsers').where('chatUsers.chatId', '=', chatId).where('chatUsers.userId', 'in', removed).execute();
    if (added.length > 0) await t.insertInto('chatUsers', added.map((userId) => ({ chatId, userId }))).execute();
  }
  await t
    .updateTable('chats')
    .set((eb) => ({ ...(input.title !== undefined ? { title: input.title } : {}), version: eb('chats.version', '+', 1), updatedAt: nowIso() }))
    .where('chats.id', '=', chatId)
    .execute();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'chat', 'update', chatId));
  return getChatDto(db, actor, { id: chatId });
}

export async function deleteChat(tx: Tx, actor: Actor, chatId: number): Promise<void> {
  const { db } = tx;
  await getOwnedChat(db, actor, chatId);
  // Its members, read before they go with it: only they hear of it.
  const members = await tenant(db, actor.companyId).selectFrom('chatUsers').select('chatUsers.userId').where('chatUsers.chatId', '=', chatId).execute();
  await tenant(db, actor.companyId).deleteFrom('chats').where('chats.id', '=', chatId).execute();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'chat', 'delete', chatId, { audience: members.map((m) => m.userId) }));
}

/** POST /chats/{id}/messages: one more unread for every other member; the chat moves to the top. */
export async function createChatMessage(tx: Tx, actor: Actor, chatId: number, input: ChatMessageCreateInput): Promise<ChatMessage> {
  const { db } = tx;
  await getMemberChat(db, actor, { id: chatId });
  const t = tenant(db, actor.companyId);
  const now = nowIso();
  const { id } = await t
    .insertInto('chatMessages', { chatId, senderId: actor.userId, message: input.message, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t
    .updateTable('chats')
    .set((eb) => ({ lastMessage: input.message.slice(0, LAST_MESSAGE_PREVIEW), updatedAt: now, version: eb('chats.version', '+', 1) }))
    .where('chats.id', '=', chatId)
    .execute();
  await t
    .updateTable('chatUsers')
    .set((eb) => ({ unreads: eb('chatUsers.unreads', '+', 1), version: eb('chatUsers.version', '+', 1), updatedAt: now }))
    .where('chatUsers.chatId', '=', chatId)
    .where('chatUsers.userId', '!=', actor.userId)
    .execute();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'chat', 'update', chatId));
  return getChatMessage(db, actor.companyId, id);
}

/** POST /chats/{id}/read: the caller's unread count back to zero (only theirs, whatever the body says). */
export async function markChatRead(tx: Tx, actor: Actor, chatId: number): Promise<Chat> {
  const { db } = tx;
  await getMemberChat(db, actor, { id: chatId });
  await tenant(db, actor.companyId)
    .updateTable('chatUsers')
    .set((eb) => ({ unreads: 0, version: eb('chatUsers.version', '+', 1), updatedAt: nowIso() }))
    .where('chatUsers.chatId', '=', chatId)
    .where('chatUsers.userId', '=', actor.userId)
    .where('chatUsers.unreads', '>', 0)
    .execute();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'chat', 'update', chatId));
  return getChatDto(db, actor, { id: chatId });
}
