// The client view's key layout (DESIGN §4): `<entity>/<id>`, one cache per user. The server's view
// registry writes these values; web and CLI read them. Each value is its entity's one wire type (the
// zod schema in domain/<entity>.ts, the same answer REST gives). A module that joins the view adds
// its entry to SyncValues, a view on the server, and (if it has mutators) entries in mutators.ts.
import type { Announcement } from './domain/announcement.ts';
import type { Chat, ChatMessage } from './domain/chat.ts';
import type { Company } from './domain/company.ts';
import type { Contact } from './domain/contact.ts';
import type { Message } from './domain/message.ts';
import type { QuickMessage } from './domain/quick-message.ts';
import type { Queue } from './domain/queue.ts';
import type { ScheduledMessage } from './domain/schedule.ts';
import type { Setting } from './domain/setting.ts';
import type { MutationError } from './domain/sync.ts';
import type { Tag } from './domain/tag.ts';
import type { TicketNote } from './domain/ticket-note.ts';
import type { Ticket } from './domain/ticket.ts';
import type { User } from './domain/user.ts';
import type { Connection } from './domain/whatsapp.ts';

export type SyncValues = {
  /** company/<id>: the user's company, as GET /companies/{id} answers it. */
  company: Company;
  user: User;
  queue: Queue;
  tag: Tag;
  quickMessage: QuickMessage;
  schedule: ScheduledMessage;
  announcement: Announcement;
  /** chat/<id>: an internal chat the user is a member of, with every member's unread count. */
  chat: Chat;
  /** chatMessage/<chatId>/<id>: one of the 50 most recent messages of such a chat. */
  chatMessage: ChatMessage;
  /** ticketNote/<id>: a note on a ticket the user may see. */
  ticketNote: TicketNote;
  connection: Connection;
  setting: Setting;
  /** mutationError/<clientID>/<mutationID>: a mutation the server refused for a business reason. */
  mutationError: MutationError;
  /** ticket/<id>: an open or pending ticket the user may see, as GET /tickets/{id} answers it. */
  ticket: Ticket;
  /** contact/<id>: the contact of a synced ticket, as GET /contacts/{id} answers it. */
  contact: Contact;
  /** message/<ticketId>/<id>: one of the newest 50 messages of a synced ticket. */
  message: Message;
};
export type SyncPrefix = keyof SyncValues;

export function syncKey(prefix: SyncPrefix, id: string | number): string {
  return `${prefix}/${id}`;
}

/** The scan prefix of one entity, e.g. `queue/`. */
export function syncPrefix(prefix: SyncPrefix): string {
  return `${prefix}/`;
}
