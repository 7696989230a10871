import { describe, expect, it } from 'vitest';
import { type Chat, CONNECTION_STATUSES, type Ticket } from '@zapdesk/sync';
import { connectionsNeedAttention, newlyUnread, notificationTickets, parseVolume, unreadChats } from './badges.ts';

const ticket = (id: number, over: Partial<Ticket>): Ticket =>
  ({ id, uuid: `u${id}`, status: 'pending', userId: null, queueId: 1, unreadMessages: 1, updatedAt: `2026-11-22T10:0${id}:00Z`, ...over }) as Ticket;

const user = { id: 7, allTicket: 'desabled', showNoQueue: false, queues: [{ id: 1 }] };

describe('connections badge', () => {
  it('needs attention for every status but CONNECTED', () => {
    for (const status of CONNECTION_STATUSES) expect(connectionsNeedAttention([{ status }])).toBe(status !== 'CONNECTED');
    expect(connectionsNeedAttention([])).toBe(false);
    expect(connectionsNeedAttention([{ status: 'CONNECTED' }, { status: 'OPENING' }])).toBe(true);
  });
});

describe('internal chat badge', () => {
  it("counts the chats where this user's unreads are above zero, not other members'", () => {
    const chat = (id: number, mine: number, other: number) =>
      ({ id, users: [{ userId: 7, unreads: mine, user: { id: 7, name: 'Me' } }, { userId: 8, unreads: other, user: { id: 8, name: 'You' } }] }) as Chat;
    expect(unreadChats([chat(1, 2, 0), chat(2, 0, 5), chat(3, 1, 1)], 7).map((c) => c.id)).toEqual([1, 3]);
  });
});

describe('ticket notifications', () => {
  it('notify for own tickets and unassigned ones in own queues, never for read or closed ones', () => {
    const list = [
      ticket(1, {}),
      ticket(2, { queueId: 2 }),
      ticket(3, { userId: 7, status: 'open', queueId: 2 }),
      ticket(4, { userId: 8, status: 'open' }),
      ticket(5, { unreadMessages: 0 }),
      ticket(6, { status: 'closed', userId: 7 }),
    ];
    expect(notificationTickets(list, user).map((t) => t.id)).toEqual([3, 1]);
  });

  it('with allTicket enabled, also pending tickets of other queues and of no queue', () => {
    const list = [ticket(1, { queueId: 2 }), ticket(2, { queueId: null }), ticket(3, { queueId: 2, status: 'open' })];
    expect(notificationTickets(list, { ...user, allTicket: 'enabled' }).map((t) => t.id)).toEqual([2, 1]);
    expect(notificationTickets(list, { ...user, showNoQueue: true }).map((t) => t.id)).toEqual([2]);
  });

  it('leaves out the ticket whose chat the user is reading', () => {
    const list = [ticket(1, { userId: 7, status: 'open' }), ticket(3, {})];
    expect(notificationTickets(list, user, 1).map((t) => t.id)).toEqual([3]);
    expect(notificationTickets(list, user, null).map((t) => t.id)).toEqual([3, 1]);
  });

  it('rings only for tickets whose unread count grew', () => {
    const before = new Map([
      [1, 1],
      [2, 3],
    ]);
    expect(newlyUnread(before, [ticket(1, { unreadMessages: 2 }), ticket(2, { unreadMessages: 3 }), ticket(3, {})], '2026-11-22T00:00:00Z').map((t) => t.id)).toEqual([1, 3]);
  });

  it('stays silent for unread tickets last changed before the page opened (the first pull)', () => {
    expect(newlyUnread(new Map(), [ticket(1, { updatedAt: '2026-11-22T09:00:00Z' }), ticket(2, { updatedAt: '2026-11-22T11:00:00Z' })], '2026-11-22T10:00:00Z').map((t) => t.id)).toEqual([2]);
  });
});

describe('volume', () => {
  it('reads the stored volume between 0 and 1 in tenths, 1 by default', () => {
    expect(parseVolume(null)).toBe(1);
    expect(parseVolume('0.3')).toBe(0.3);
    expect(parseVolume('"0.5"')).toBe(0.5);
    expect(parseVolume('7')).toBe(1);
    expect(parseVolume('garbage')).toBe(1);
  });
});
