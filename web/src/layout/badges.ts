// Rules of the drawer badges and the top bar's popovers (spec/01 §2, §4; spec/02 §4, §6), pure so
// they are unit-tested: which connections need attention, which internal chats are unread, which
// tickets notify whom, and the notification volume.
import type { Chat, Connection, Ticket } from '@zapdesk/sync';

/** Every status but CONNECTED asks the admin to look at the connections page. */
export const ATTENTION_STATUSES: ReadonlySet<string> = new Set(['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING']);

/** The side menu checks this 2 s after the connection list changes, so a brief reconnect does not flash. */
export const CONNECTION_CHECK_DELAY_MS = 2000;

export function connectionsNeedAttention(rows: readonly Pick<Connection, 'status'>[]): boolean {
  return rows.some((c) => ATTENTION_STATUSES.has(c.status));
}

/** Internal chats where the user has unread messages. */
export function unreadChats(chats: readonly Chat[], userId: number): Chat[] {
  return chats.filter((c) => (c.users.find((u) => u.userId === userId)?.unreads ?? 0) > 0);
}

export type NotifiedUser = { id: number; allTicket: string; showNoQueue: boolean; queues: readonly { id: number }[] };

/**
 * Tickets with unread messages that notify this user: their own, and unassigned ones in their
 * queues (any queue when allTicket is enabled, none when the ticket has no queue unless the user
 * sees tickets without a queue). Newest first. `reading`: the ticket whose chat the user has in
 * front of them, which never notifies.
 */
export function notificationTickets(tickets: readonly Ticket[], user: NotifiedUser, reading: number | null = null): Ticket[] {
  const queueIds = new Set(user.queues.map((q) => q.id));
  const mine = (t: Ticket) => {
    if (t.status === 'closed' || t.unreadMessages <= 0 || t.id === reading) return false;
    if (t.userId !== null) return t.userId === user.id;
    if (t.queueId === null) return user.showNoQueue || user.allTicket === 'enabled';
    return queueIds.has(t.queueId) || (user.allTicket === 'enabled' && t.status === 'pending');
  };
  return tickets.filter(mine).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);
}

/**
 * Tickets whose unread count grew since the last look and that changed after `since` (when the
 * page opened): these ring. Old unread tickets arriving with the first pull stay silent.
 */
export function newlyUnread(previous: ReadonlyMap<number, number>, now: readonly Ticket[], since: string): Ticket[] {
  return now.filter((t) => t.unreadMessages > (previous.get(t.id) ?? 0) && t.updatedAt > since);
}

/** The stored volume, 0 to 1 in steps of 0.1, default 1 (spec/02 §9). */
export function parseVolume(raw: string | null): number {
  // Stored as JSON (`"0.5"` or `0.5`), like every value of the original app.
  const n = raw === null ? NaN : Number(raw.replace(/"/g, ''));
  if (!Number.isFinite(n)) return 1;
  return Math.round(Math.min(1, Math.max(0, n)) * 10) / 10;
}
