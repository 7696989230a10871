// Internal chat list rules: newest activity first, my unread count per chat, one chat's messages in
// the order they were written (the synced recent ones merged with older REST pages).
import type { Chat, ChatMessage } from '@zapdesk/sync';

export function unreadFor(chat: Chat, userId: number): number {
  return chat.users.find((u) => u.userId === userId)?.unreads ?? 0;
}

export function sortChats(chats: readonly Chat[]): Chat[] {
  return [...chats].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || b.id - a.id);
}

const byWritten = (a: ChatMessage, b: ChatMessage) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id;

export function messagesOf(messages: readonly ChatMessage[], chatId: number): ChatMessage[] {
  return messages.filter((m) => m.chatId === chatId).sort(byWritten);
}

/**
 * One chat's messages oldest first: the older pages of GET /chats/{id}/messages (any order, pages may
 * overlap each other and the synced ones, since new messages shift the offsets) and the synced recent
 * ones, one per id. The synced copy wins: it is the live one (a sender renamed since the page came).
 */
export function mergeChatMessages(older: readonly ChatMessage[], synced: readonly ChatMessage[], chatId: number): ChatMessage[] {
  const byId = new Map<number, ChatMessage>();
  for (const m of older) if (m.chatId === chatId) byId.set(m.id, m);
  for (const m of synced) if (m.chatId === chatId) byId.set(m.id, m);
  return [...byId.values()].sort(byWritten);
}
