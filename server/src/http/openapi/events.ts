// What the API sends without being asked, documented from the same zod wire schemas as the routes:
// the company webhooks' deliveries (OpenAPI 3.1 `webhooks`, one per event) and the live channels
// of /sync/ws (`x-zapdesk-live-channels`, plus the prose of the document's description). Tests
// validate real deliveries and real channel messages against these (server/test/openapi-check.ts).
import type {
  WEBHOOK_EVENTS,
  WEBHOOK_TEST_EVENT} from '@zapdesk/sync';
import {
  campaignSchema,
  chatSchema,
  connectionSchema,
  contactListItemSchema,
  contactListSchema,
  contactSchema,
  fileListSchema,
  invoiceSchema,
  messageSchema,
  promptSchema,
  queueIntegrationSchema,
  queueSchema,
  ticketSchema,
  userSchema
} from '@zapdesk/sync';
import { z } from 'zod';

const paymentData = z.object({
  action: z.literal('CONCLUIDA'),
  invoiceId: z.number().int(),
  /** The company's new due date. */
  dueDate: z.string(),
  invoice: invoiceSchema.nullable(),
});

/** The `data` of each webhook event: the record as its REST GET answers it. */
export const WEBHOOK_DATA: Record<(typeof WEBHOOK_EVENTS)[number] | typeof WEBHOOK_TEST_EVENT, { summary: string; data: z.ZodType }> = {
  'message.received': { summary: 'A contact sent a message (the stored message).', data: messageSchema },
  'message.sent': { summary: 'The platform queued a message to a contact (agents, bot, flows, AI, campaigns, external API), ack 0.', data: messageSchema },
  'ticket.created': { summary: 'A ticket was opened (inbound message, an agent, a campaign).', data: ticketSchema },
  'ticket.status_changed': { summary: 'A ticket moved between pending, open and closed (accepted, closed, reopened, expired).', data: ticketSchema },
  'ticket.transferred': { summary: 'A ticket moved to another queue or connection, or to another user while its status stayed.', data: ticketSchema },
  'contact.created': { summary: 'A contact was created (REST, inbound, campaigns; an import sends one per imported contact).', data: contactSchema },
  'contact.updated': { summary: 'A contact changed (REST, its profile picture).', data: contactSchema },
  'campaign.finished': { summary: 'A campaign sent to its last recipient (FINALIZADA).', data: campaignSchema },
  'payment.confirmed': { summary: "An invoice of the company was paid; the company's new due date.", data: paymentData },
  'webhook.test': { summary: '"Send test" on the webhooks page or `zapdesk webhooks test`.', data: z.object({ webhook: z.object({ id: z.number().int(), name: z.string() }), message: z.string() }) },
};

/** Every delivery's body. */
export const webhookPayloadOf = (event: string, data: z.ZodType) =>
  z.object({
    id: z.string().describe('The event id: the same on every attempt (de-duplicate on it; also the X-Zapdesk-Delivery header).'),
    event: z.literal(event),
    companyId: z.number().int(),
    timestamp: z.string().describe('When the event was recorded (ISO-8601, UTC).'),
    data,
  });

export const WEBHOOK_HEADERS: { name: string; description: string }[] = [
  { name: 'X-Zapdesk-Event', description: 'The event, as in the body.' },
  { name: 'X-Zapdesk-Delivery', description: 'The event id (the same on every attempt).' },
  { name: 'X-Zapdesk-Timestamp', description: 'Unix seconds when this attempt was signed.' },
  { name: 'X-Zapdesk-Signature', description: '`sha256=` and the hex HMAC-SHA256 of `${timestamp}.${raw body}` under the webhook\'s secret (`whsec_…`, shown once).' },
];

/** The record schema of each live channel (the entity's REST GET answer). */
export const LIVE_RECORDS: Record<string, { schema: z.ZodType; what: string }> = {
  whatsapp: { schema: connectionSchema, what: 'connections (create, update, delete)' },
  whatsappSession: { schema: connectionSchema, what: "a connection's session: status, QR code, retries (update)" },
  user: { schema: userSchema, what: 'users, with their `language`; presence (`online`) and language changes are updates' },
  chat: { schema: chatSchema, what: 'internal chats (only to their members)' },
  ticket: { schema: ticketSchema, what: 'tickets (create, update: status, queue, user, unread, last message; delete)' },
  appMessage: { schema: messageSchema, what: 'messages (create; update: ack, sent or failed, edited, deleted); key `message`' },
  contact: { schema: contactSchema, what: 'contacts; an import announces each batch as one message `{action:"create", contacts:[…]}`' },
  file: { schema: fileListSchema, what: 'file lists' },
  prompt: { schema: promptSchema, what: 'AI prompts (the API key masked)' },
  queueIntegration: { schema: queueIntegrationSchema, what: 'queue integrations (secrets masked)' },
  queue: { schema: queueSchema, what: 'queues' },
  ContactList: { schema: contactListSchema, what: 'contact lists' },
  ContactListItem: { schema: contactListItemSchema, what: 'contact list items, also on `company-{id}-ContactListItem-{listId}`; an upload or the WhatsApp check as one message `{action, ContactListItems:[…]}` per batch' },
  campaign: { schema: campaignSchema, what: 'campaigns (create; update: edits, started, cancelled, restarted, finished; delete)' },
};

const recordKey = (entity: string) => (entity === 'appMessage' ? 'message' : entity);

/** The `data` of an event on the channel: one record, a batch of records, or a delete. */
export function liveMessageOf(entity: string, record: z.ZodType): z.ZodType {
  const key = recordKey(entity);
  return z.union([
    z.object({ action: z.enum(['create', 'update']), [key]: record }).strict(),
    z.object({ action: z.enum(['create', 'update']), [`${key}s`]: z.array(record) }).strict(),
    z.object({ action: z.literal('delete'), [`${key}Id`]: z.number().int() }).strict(),
  ]);
}

export const paymentLiveMessage = z.object({ action: z.literal('CONCLUIDA'), invoiceId: z.number().int(), dueDate: z.string() });

/** The live channels, in the document's description (rendered by /docs). */
export const LIVE_CHANNELS_MARKDOWN = `

## Live channels (WebSocket)

The same socket as the sync pokes, \`GET /sync/ws?token=<access token>\`, carries per-company channels for your own systems. Wait for \`{"type":"ready"}\`, then join channels by name. Only an admin of the company (or the super-admin, in their own company) may join; another company's channel is refused.

- Join: \`{"type":"join","channel":"company-7-ticket"}\` → \`{"type":"joined","channel":"company-7-ticket"}\`, or \`{"type":"error","channel":…,"error":"ERR_NO_PERMISSION"|"ERR_VALIDATION"|"ERR_NOT_FOUND","message":…}\` (nothing joined). At most 64 channels per socket.
- Leave: \`{"type":"leave","channel":…}\` → \`{"type":"left","channel":…}\`.
- Events: \`{"type":"event","channel":"company-7-ticket","data":{"action":"create"|"update","ticket":{…}}}\` with the record as its REST GET answers it; a delete is \`{"action":"delete","ticketId":42}\`; a batch (imports, a contact list upload or its WhatsApp check) is one message with the plural key: \`{"action":"create","contacts":[{…},…]}\` (up to 1,000 records). Per company, events come in commit order; the record is read when the event is sent, so it may already show a later change (whose own event follows).
- Token: the access token expires within minutes: on close code 4001 refresh it and reconnect, then join again. Close code 4003: the session ended.
- The exact schema of each channel's \`data\` is under \`x-zapdesk-live-channels\` in /openapi.json.

| channel | records |
| --- | --- |
${Object.entries(LIVE_RECORDS)
  .map(([entity, { what }]) => `| \`company-{companyId}-${entity}\` | ${what} |`)
  .join('\n')}
| \`company-{companyId}-payment\` | \`{"action":"CONCLUIDA","invoiceId":…,"dueDate":…}\` when an invoice is paid |

## Webhooks

An admin registers URLs for events (POST /webhooks). Each event is POSTed as JSON \`{id, event, companyId, timestamp, data}\`, \`data\` being the record as its REST GET answers it, signed in \`X-Zapdesk-Signature\`; any 2xx is delivered, anything else is retried with backoff (up to 8 attempts) with the same event id. A ticket's events arrive in order. The events and their payloads are under **Webhooks** below. Receivers must be reachable public http(s) URLs (loopback and private addresses are refused unless the server sets WEBHOOKS_ALLOW_PRIVATE=1).`;
