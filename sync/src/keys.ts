// The client view's key layout (DESIGN §4): `<entity>/<id>`, one cache per user. The server's view
// registry writes these values; web and CLI read them. A module that joins the view adds its value
// type to SyncValues, a view file on the server, and (if it has mutators) entries in mutators.ts.
import type { ReadonlyJSONValue } from 'replicache';
import type { PlanFlags } from './plan-features.ts';
import type { Contact } from './domain/contact.ts';
import type { Message } from './domain/message.ts';
import type { Ticket } from './domain/ticket.ts';

export type SyncedPlan = {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  valueCents: number;
} & PlanFlags;

export type SyncedCompany = {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  status: boolean;
  dueDate: string | null;
  trialExpiration: string | null;
  recurrence: string;
  schedules: ReadonlyJSONValue;
  plan: SyncedPlan | null;
};

/** The public fields of a user of the company; `language` only on the signed-in user's own row. */
export type SyncedUser = {
  id: number;
  name: string;
  email: string;
  profile: string;
  super: boolean;
  online: boolean;
  whatsappId: number | null;
  allTicket: string;
  showNoQueue: boolean;
  queueIds: number[];
  language?: string | null;
};

export type SyncedQueue = {
  id: number;
  name: string;
  color: string;
  orderQueue: number | null;
  greetingMessage: string | null;
  outOfHoursMessage: string | null;
  ratingMessage: string | null;
  complationMessage: string | null;
  schedules: ReadonlyJSONValue;
  integrationId: number | null;
  promptId: number | null;
};

export type SyncedTag = { id: number; name: string; color: string; kanban: boolean; userId: number | null };

export type SyncedQuickMessage = {
  id: number;
  shortcode: string;
  message: string;
  mediaPath: string | null;
  mediaName: string | null;
  geral: boolean;
  status: boolean;
  userId: number | null;
};

/** A WhatsApp connection; `token` (the messages-API bearer) is present for admins only. */
export type SyncedConnection = {
  id: number;
  name: string;
  status: string;
  qrcode: string;
  retries: number;
  isDefault: boolean;
  number: string | null;
  provider: string;
  updatedAt: string;
  greetingMessage: string | null;
  complationMessage: string | null;
  outOfHoursMessage: string | null;
  ratingMessage: string | null;
  expiresInactiveMessage: string | null;
  expiresTicket: number;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  timeToTransfer: number;
  transferQueueId: number | null;
  promptId: number | null;
  integrationId: number | null;
  schedules: ReadonlyJSONValue;
  queueIds: number[];
  token?: string | null;
};

export type SyncedSetting = { key: string; value: string };

/** A mutation the server refused for a business reason; kept in the view of the client group that sent it. */
export type SyncedMutationError = {
  clientID: string;
  mutationID: number;
  name: string;
  code: string;
  message: string;
  createdAt: string;
};

/** A scheduled message; the contact's name and number ride along (contacts are not all in the view). */
export type SyncedSchedule = {
  id: number;
  body: string;
  status: string;
  sendAt: string;
  sentAt: string | null;
  error: string | null;
  contactId: number;
  contact: { id: number; name: string; number: string } | null;
  userId: number | null;
  ticketId: number | null;
  mediaPath: string | null;
  mediaName: string | null;
  updatedAt: string;
};

/** A platform-wide announcement from the super-admin (active ones; the super-admin sees all). */
export type SyncedAnnouncement = {
  id: number;
  title: string;
  text: string;
  priority: number;
  status: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: string;
  updatedAt: string;
};

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
  company: SyncedCompany;
  user: SyncedUser;
  queue: SyncedQueue;
  tag: SyncedTag;
  quickMessage: SyncedQuickMessage;
  schedule: SyncedSchedule;
  announcement: SyncedAnnouncement;
  chat: SyncedChat;
  chatMessage: SyncedChatMessage;
  ticketNote: SyncedTicketNote;
  connection: SyncedConnection;
  setting: SyncedSetting;
  mutationError: SyncedMutationError;
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
