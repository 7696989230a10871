import type { Ticket } from '@zapdesk/sync';
import { describe, expect, it } from 'vitest';
import { ticketActions } from '../actions/ticket-actions.ts';
import { canShowAll, openLists, shortName } from './ticket-list.ts';

const ticket = (id: number, over: Partial<Ticket>) => ({ id, status: 'pending', userId: null, queueId: 1, lastInteractionAt: `2026-03-01T10:0${id}:00Z`, updatedAt: '2026-03-01T10:00:00Z', ...over }) as Ticket;

const me = { id: 7, profile: 'user', queueIds: [1] };
const admin = { id: 1, profile: 'admin', queueIds: [1] };
const tickets = [
  ticket(1, { status: 'open', userId: 7 }),
  ticket(2, { status: 'open', userId: 8 }),
  ticket(3, { status: 'pending' }),
  ticket(4, { status: 'pending', queueId: 2 }),
  ticket(5, { status: 'pending', queueId: null }),
  ticket(6, { status: 'closed', userId: 7 }),
];

describe('the open tab', () => {
  it('splits assigned (open) and pending, newest first, mine and my queues without show-all', () => {
    const lists = openLists(tickets, me, { showAll: false, queueIds: [1, 2] });
    expect(lists.assigned.map((t) => t.id)).toEqual([1]);
    expect(lists.pending.map((t) => t.id)).toEqual([5, 3]);
  });

  it('shows everyone’s with show-all, only for those allowed', () => {
    expect(openLists(tickets, admin, { showAll: true, queueIds: [1, 2] }).assigned.map((t) => t.id)).toEqual([2, 1]);
    expect(openLists(tickets, me, { showAll: true, queueIds: [1, 2] }).assigned.map((t) => t.id)).toEqual([1]);
    expect(canShowAll(admin)).toBe(true);
    expect(canShowAll(me)).toBe(false);
  });

  it('applies the queue filter, keeping tickets without a queue', () => {
    expect(openLists(tickets, admin, { showAll: true, queueIds: [2] }).pending.map((t) => t.id)).toEqual([5, 4]);
  });

  it('cuts names to 10 characters on narrow screens', () => {
    expect(shortName('Mariana Souza', true)).toBe('Mariana So…');
    expect(shortName('Mariana Souza', false)).toBe('Mariana Souza');
  });
});

describe('ticket actions by status, holder and role', () => {
  const names = (s: Set<string>) => [...s].sort();
  it('pending: accept, resolve, transfer; admins also peek and delete', () => {
    expect(names(ticketActions({ status: 'pending', userId: null }, me))).toEqual(['accept', 'resolve', 'transfer']);
    expect(names(ticketActions({ status: 'pending', userId: null }, admin))).toEqual(['accept', 'delete', 'resolve', 'spy', 'transfer']);
  });
  it('open and mine: write, resend, return, resolve, transfer, schedule, tags', () => {
    expect(names(ticketActions({ status: 'open', userId: 7 }, me))).toEqual(['resend', 'resolve', 'return', 'schedule', 'tags', 'transfer', 'write']);
  });
  it('open and someone else’s: an admin may peek, manage, resend a failed message (as the server allows) or take it over (writing only after)', () => {
    expect(names(ticketActions({ status: 'open', userId: 8 }, admin))).toEqual(['accept', 'delete', 'resend', 'resolve', 'return', 'spy', 'transfer']);
    expect(names(ticketActions({ status: 'open', userId: 8 }, me))).toEqual(['accept']);
  });
  it('a super-admin acts as an admin whatever its profile', () => {
    const superUser = { id: 2, profile: 'user', super: true, queueIds: [] };
    expect(names(ticketActions({ status: 'open', userId: 8 }, superUser))).toEqual(names(ticketActions({ status: 'open', userId: 8 }, admin)));
    expect(canShowAll(superUser)).toBe(true);
  });
  it('closed: reopen (and delete for admins)', () => {
    expect(names(ticketActions({ status: 'closed', userId: 7 }, me))).toEqual(['reopen']);
    expect(names(ticketActions({ status: 'closed', userId: 7 }, admin))).toEqual(['delete', 'reopen']);
  });
});
