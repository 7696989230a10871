import type { Ticket } from '@zapdesk/sync';
import { column } from '../../present.ts';

/** One line of a ticket list: what an attendant scans for (who, where, how long waiting, what was said). */
export const ticketColumns = [
  column<Ticket>('id', (t) => t.id),
  column<Ticket>('status', (t) => t.status),
  column<Ticket>('contact', (t) => `${t.contact.name} (${t.contact.number})`),
  column<Ticket>('queue', (t) => t.queue?.name),
  column<Ticket>('user', (t) => t.user?.name),
  column<Ticket>('unread', (t) => t.unreadMessages || ''),
  column<Ticket>('tags', (t) => t.tags.map((g) => g.name)),
  column<Ticket>('updated', (t) => t.updatedAt.slice(0, 16).replace('T', ' ')),
  column<Ticket>('last message', (t) => (t.lastMessage.length > 40 ? `${t.lastMessage.slice(0, 39)}…` : t.lastMessage)),
];
