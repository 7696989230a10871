// Internal chat list rules: newest activity first, my unread count per chat, one chat's messages in
// the order they were written.
import type { SyncedChat, SyncedChatMessage } from '@zapdesk/sync/keys';

export function unreadFor(chat: SyncedChat, userId: number): number {
  return chat.users.find((u) => u.userId === userId)?.unreads ?? 0;
}

export function sortChats(chats: readonly SyncedChat[]): SyncedChat[] {
  return [...chats].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || b.id - a.id);
}

export function messagesOf(messages: readonly SyncedChatMessage[], chatId: number): SyncedChatMessage[] {
  return messages.filter((m) => m.chatId === chatId).sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
}
