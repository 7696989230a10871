// The client view's key layout (DESIGN §4): `<entity>/<id>`, one cache per user. The server's view
// registry writes these values; web and CLI read them. A module that joins the view adds its value
// type to SyncValues, a view file on the server, and (if it has mutators) entries in mutators.ts.
import type { Announcement } from './domain/announcement.ts';
import type { Company } from './domain/company.ts';
import type { Contact } from './domain/contact.ts';
import type { Message } from './domain/message.ts';
import type { QuickMessage } from './domain/quick-message.ts';
import type { Queue } from './domain/queue.ts';
import type { ScheduledMessage } from './domain/schedule.ts';
import type { Setting } from './domain/setting.ts';
import type { MutationError } from './domain/sync.ts';
import type { Tag } from './domain/tag.ts';
import type { Ticket } from './domain/ticket.ts';
import type { User } from './domain/user.ts';
import type { Connection } from './domain/whatsapp.ts';

/** An internal chat the user is a member of, with every member's unread count. */
export type SyncedChat = {
  id: number;
  uuid: string;
  title: string;
  ownerId: number | null;
  lastMessage: string;
  createdAt: string;
  updatedAt: string;
  users: { userId: number; unreads: number; user: { id: number; name: string } }[];
};

/** One of the recent messages of a chat; the key is `chatMessage/<chatId>/<id>`. */
export type SyncedChatMessage = {
  id: number;
  chatId: number;
  message: string;
  senderId: number | null;
  sender: { id: number; name: string } | null;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: string;
};

/** A note on a ticket the user may see. */
export type SyncedTicketNote = {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  userId: number | null;
  user: { id: number; name: string } | null;
  createdAt: string;
};

/** ticket/<id>: an open or pending ticket the user may see, as GET /tickets/{id} answers it. */
export type SyncedTicket = Ticket;
/** contact/<id>: the contact of a synced ticket. */
export type SyncedContact = Contact;
/** message/<ticketId>/<id>: one of the newest 50 messages of a synced ticket. */
export type SyncedMessage = Message;

export type SyncValues = {
  company: Company;
  user: User;
  queue: Queue;
  tag: Tag;
  quickMessage: QuickMessage;
  schedule: ScheduledMessage;
  announcement: Announcement;
  chat: SyncedChat;
  chatMessage: SyncedChatMessage;
  ticketNote: SyncedTicketNote;
  connection: Connection;
  setting: Setting;
  mutationError: MutationError;
  ticket: SyncedTicket;
  contact: SyncedContact;
  message: SyncedMessage;
};
export type SyncPrefix = keyof SyncValues;

export function syncKey(prefix: SyncPrefix, id: string | number): string {
  return `${prefix}/${id}`;
}

/** The scan prefix of one entity, e.g. `queue/`. */
export function syncPrefix(prefix: SyncPrefix): string {
  return `${prefix}/`;
}

/** Splits `queue/12` into its entity and id; the id keeps any further slashes (`message/42/9001`). */
export function parseSyncKey(key: string): { prefix: string; id: string } {
  const i = key.indexOf('/');
  return i < 0 ? { prefix: key, id: '' } : { prefix: key.slice(0, i), id: key.slice(i + 1) };
}
