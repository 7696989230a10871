// The wire schemas the document names once, under components/schemas, and refers to everywhere else:
// the entities every transport sends (sync/src/domain). Without this each operation would carry its
// own copy of a ticket or a message, and the document would be several times larger.
import {
  announcementSchema,
  campaignSchema,
  chatMessageSchema,
  chatSchema,
  companySchema,
  connectionSchema,
  contactListItemSchema,
  contactListSchema,
  contactSchema,
  fileListSchema,
  flowSchema,
  invoiceSchema,
  messageSchema,
  phraseCampaignSchema,
  planSchema,
  promptSchema,
  queueIntegrationSchema,
  queueSchema,
  quickMessageSchema,
  scheduledMessageSchema,
  sessionUserSchema,
  settingSchema,
  tagSchema,
  ticketNoteSchema,
  ticketSchema,
  userSchema,
} from '@zapdesk/sync';
import { z } from 'zod';

const NAMED: [z.ZodType, string][] = [
  [ticketSchema, 'Ticket'],
  [messageSchema, 'Message'],
  [contactSchema, 'Contact'],
  [queueSchema, 'Queue'],
  [userSchema, 'User'],
  [sessionUserSchema, 'SessionUser'],
  [tagSchema, 'Tag'],
  [connectionSchema, 'Connection'],
  [companySchema, 'Company'],
  [planSchema, 'Plan'],
  [invoiceSchema, 'Invoice'],
  [campaignSchema, 'Campaign'],
  [scheduledMessageSchema, 'ScheduledMessage'],
  [quickMessageSchema, 'QuickMessage'],
  [announcementSchema, 'Announcement'],
  [chatSchema, 'Chat'],
  [chatMessageSchema, 'ChatMessage'],
  [contactListSchema, 'ContactList'],
  [contactListItemSchema, 'ContactListItem'],
  [fileListSchema, 'FileList'],
  [promptSchema, 'Prompt'],
  [queueIntegrationSchema, 'QueueIntegration'],
  [flowSchema, 'Flow'],
  [phraseCampaignSchema, 'PhraseCampaign'],
  [ticketNoteSchema, 'TicketNote'],
  [settingSchema, 'Setting'],
];

/** Names for answers (what the server sends) and for requests (what it reads: defaults make fields optional). */
export const OUTPUT_NAMES = z.registry<{ id: string }>();
export const INPUT_NAMES = z.registry<{ id: string }>();
for (const [schema, id] of NAMED) {
  OUTPUT_NAMES.add(schema, { id });
  INPUT_NAMES.add(schema, { id: `${id}Input` });
}

/** Whether a `$defs` name is one of the names above (zod names the other shared parts `__schema0`…). */
export const isNamed = (name: string) => !name.startsWith('__schema');
