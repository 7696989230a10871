import type { Ticket } from '@zapdesk/sync';
import { column } from '../../present.ts';

/**
 * One line of a ticket list: what an attendant scans for (who, where, how long waiting, what was
 * said). On a narrow terminal tags go first, then the user, the queue and the time; the contact
 * and the last message stay, narrowed.
 */
export const ticketColumns = [
  column<Ticket>('id', (t) => t.id),
  column<Ticket>('status', (t) => t.status),
  column<Ticket>('contact', (t) => `${t.contact.name} (${t.contact.number})`, { min: 20 }),
  column<Ticket>('queue', (t) => t.queue?.name, { drop: 3 }),
  column<Ticket>('user', (t) => t.user?.name, { drop: 2 }),
  column<Ticket>('unread', (t) => t.unreadMessages || ''),
  column<Ticket>('tags', (t) => t.tags.map((g) => g.name), { drop: 1 }),
  column<Ticket>('updated', (t) => t.updatedAt.slice(0, 16).replace('T', ' '), { min: 16, drop: 4 }),
  column<Ticket>('last message', (t) => (t.lastMessage.length > 40 ? `${t.lastMessage.slice(0, 39)}…` : t.lastMessage), { min: 20 }),
];
