// The ticket manager's rules over the synced tickets (spec/02 §2.1, §4, §6): the open tab's two
// lists (assigned = status open, pending) with their counts, the show-all switch, the queue filter,
// newest activity first.
import { can, type Ticket } from '@zapdesk/sync';

export type Viewer = { id: number; profile: string; super?: boolean; queueIds: readonly number[] };

export type ListFilter = {
  /** Everyone's tickets (admins or whoever holds tickets-manager:showall); otherwise mine and my queues' pending. */
  showAll: boolean;
  /** Queues picked in the filter; tickets without a queue always show. */
  queueIds: readonly number[];
};

/** Who sees the show-all switch. */
export const canShowAll = (viewer: Pick<Viewer, 'profile' | 'super'>) => can(viewer, 'tickets-manager:showall');

const recentFirst = (a: Ticket, b: Ticket) => (b.lastInteractionAt ?? b.updatedAt).localeCompare(a.lastInteractionAt ?? a.updatedAt) || b.id - a.id;

function visible(t: Ticket, viewer: Viewer, filter: ListFilter): boolean {
  if (t.queueId !== null && !filter.queueIds.includes(t.queueId)) return false;
  if (filter.showAll && canShowAll(viewer)) return true;
  if (t.status === 'open') return t.userId === viewer.id;
  // Pending: waiting in one of my queues (or in none), or handed to me.
  return t.userId === viewer.id || t.queueId === null || viewer.queueIds.includes(t.queueId);
}

export type OpenLists = { assigned: Ticket[]; pending: Ticket[] };

export function openLists(tickets: readonly Ticket[], viewer: Viewer, filter: ListFilter): OpenLists {
  const assigned: Ticket[] = [];
  const pending: Ticket[] = [];
  for (const t of tickets) {
    if (!visible(t, viewer, filter)) continue;
    if (t.status === 'open') assigned.push(t);
    else if (t.status === 'pending') pending.push(t);
  }
  return { assigned: assigned.sort(recentFirst), pending: pending.sort(recentFirst) };
}

/** A name cut for narrow screens (spec/02 §9: 10 characters below 600 px). */
export function shortName(name: string, narrow: boolean): string {
  return narrow && name.length > 10 ? `${name.slice(0, 10)}…` : name;
}
