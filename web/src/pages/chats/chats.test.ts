import { describe, expect, it } from 'vitest';
import type { Chat, ChatMessage } from '@zapdesk/sync';
import { mergeChatMessages, messagesOf, sortChats, unreadFor } from './chats.ts';

const chat = (id: number, updatedAt: string, unreads: Record<number, number> = {}): Chat => ({
  id,
  uuid: `c${id}`,
  title: `Chat ${id}`,
  ownerId: 1,
  lastMessage: '',
  createdAt: updatedAt,
  updatedAt,
  users: Object.entries(unreads).map(([userId, n]) => ({ userId: Number(userId), unreads: n, user: { id: Number(userId), name: `U${userId}` } })),
});
const msg = (id: number, chatId: number, createdAt: string): ChatMessage => ({ id, chatId, message: `m${id}`, senderId: 1, sender: null, mediaPath: null, mediaName: null, createdAt });

describe('internal chat lists', () => {
  it('counts only my unreads, zero when I am not listed', () => {
    const c = chat(1, '2026-11-22T10:00:00Z', { 1: 0, 2: 3 });
    expect(unreadFor(c, 2)).toBe(3);
    expect(unreadFor(c, 1)).toBe(0);
    expect(unreadFor(c, 9)).toBe(0);
  });

  it('lists chats by latest activity', () => {
    expect(sortChats([chat(1, '2026-11-20T10:00:00Z'), chat(2, '2026-11-22T10:00:00Z'), chat(3, '2026-11-21T10:00:00Z')]).map((c) => c.id)).toEqual([2, 3, 1]);
  });

  it("keeps one chat's messages, oldest first", () => {
    const all = [msg(3, 1, '2026-11-22T10:02:00Z'), msg(1, 1, '2026-11-22T10:00:00Z'), msg(2, 2, '2026-11-22T10:01:00Z')];
    expect(messagesOf(all, 1).map((m) => m.id)).toEqual([1, 3]);
  });

  it('merges older pages with the synced messages: one per id, oldest first, the synced copy kept', () => {
    const synced = [msg(5, 1, '2026-11-22T10:05:00Z'), msg(4, 1, '2026-11-22T10:04:00Z'), { ...msg(3, 1, '2026-11-22T10:03:00Z'), message: 'live' }, msg(9, 2, '2026-11-22T10:09:00Z')];
    // Pages come newest first and overlap each other and the synced ones (new messages shift offsets).
    const older = [msg(3, 1, '2026-11-22T10:03:00Z'), msg(2, 1, '2026-11-22T10:02:00Z'), msg(2, 1, '2026-11-22T10:02:00Z'), msg(1, 1, '2026-11-22T10:01:00Z')];
    const merged = mergeChatMessages(older, synced, 1);
    expect(merged.map((m) => m.id)).toEqual([1, 2, 3, 4, 5]);
    expect(merged.find((m) => m.id === 3)?.message).toBe('live');
  });

  it('orders messages written in the same instant by id, and keeps other chats out', () => {
    const at = '2026-11-22T10:00:00Z';
    expect(mergeChatMessages([msg(8, 1, at), msg(7, 1, at), msg(6, 2, at)], [msg(10, 1, at)], 1).map((m) => m.id)).toEqual([7, 8, 10]);
    expect(mergeChatMessages([], [], 1)).toEqual([]);
  });
});
