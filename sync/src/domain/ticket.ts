import { z } from 'zod';
import { idSchema, namedRefSchema, queryBool, timestampSchema } from './common.ts';
import { contactSchema } from './contact.ts';

// Tickets (spec/02 §3, §4, §7): statuses, the list filters of GET /tickets, the bodies of POST and
// PUT /tickets, and the ticket shape every client reads (`ticketSchema`: REST and ticket/<id> of the
// client view alike).

export const TICKET_STATUSES = ['pending', 'open', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const ticketStatusSchema = z.enum(TICKET_STATUSES);

/** Tickets per page of GET /tickets. */
export const TICKETS_PAGE_SIZE = 40;

// Lists arrive as `a=1&a=2`, `a[]=1`, a JSON string ("[1,2]") or "1,2": all read as a list of ids.
const idList = z.preprocess((v) => {
  if (v === undefined || v === '') return undefined;
  if (Array.isArray(v)) return v.flatMap((x) => (typeof x === 'string' ? x.split(',') : [x])).filter((x) => x !== '');
  if (typeof v === 'string') {
    const s = v.trim();
    if (s.startsWith('[')) {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        return v;
      }
    }
    return s.split(',').filter((x) => x !== '');
  }
  return v;
}, z.array(idSchema).max(500).optional());

/** GET /tickets (spec/02 §7). Dates are days (YYYY-MM-DD, UTC). */
export const ticketListQuerySchema = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  status: ticketStatusSchema.optional().or(z.literal('').transform(() => undefined)),
  tags: idList,
  users: idList,
  queueIds: idList,
  date: z.iso.date().optional().or(z.literal('').transform(() => undefined)),
  updatedAt: z.iso.date().optional().or(z.literal('').transform(() => undefined)),
  showAll: queryBool.optional(),
  withUnreadMessages: queryBool.optional(),
  isGroup: queryBool.optional(),
});
export type TicketListQuery = z.infer<typeof ticketListQuerySchema>;

const optionalId = z.preprocess((v) => (v === '' ? null : v), idSchema.nullable().optional());

/** POST /tickets: creating a ticket opens it (spec/02 §4). */
export const ticketCreateSchema = z.object({
  contactId: idSchema,
  queueId: optionalId,
  whatsappId: optionalId,
  userId: optionalId,
  status: z.enum(['open', 'pending']).optional().default('open'),
});
export type TicketCreateInput = z.infer<typeof ticketCreateSchema>;

/** PUT /tickets/{id}: a status and/or a transfer target; see the transitions of spec/02 §4. */
export const ticketUpdateSchema = z.object({
  status: ticketStatusSchema.optional(),
  userId: optionalId,
  queueId: optionalId,
  whatsappId: optionalId,
  useIntegration: z.boolean().optional(),
  promptId: optionalId,
  integrationId: optionalId,
  /** Closing only: false closes without the queue's or connection's closing message (default true). */
  sendFarewell: z.boolean().optional(),
});
export type TicketUpdateInput = z.infer<typeof ticketUpdateSchema>;

const refId = z.number().int().positive();

export const ticketTagSchema = z.object({ id: refId, name: z.string(), color: z.string() });
export type TicketTag = z.infer<typeof ticketTagSchema>;

/** One ticket as the server sends it: GET /tickets/{id}, the pages of GET /tickets, ticket/<id> in the client view. */
export const ticketSchema = z.object({
  id: refId,
  uuid: z.uuid().describe('The public id: the web opens /tickets/{uuid}.'),
  status: ticketStatusSchema,
  userId: refId.nullable().describe('The attendant holding the ticket; null while it waits (pending) and for bot conversations.'),
  user: namedRefSchema.nullable(),
  queueId: refId.nullable(),
  queue: z.object({ id: refId, name: z.string(), color: z.string() }).nullable(),
  whatsappId: refId.nullable().describe('The connection the conversation runs on.'),
  whatsapp: z.object({ id: refId, name: z.string(), status: z.string() }).nullable(),
  contactId: refId,
  contact: contactSchema.pick({ id: true, name: true, number: true, email: true, profilePicUrl: true, isGroup: true, disableBot: true }),
  isGroup: z.boolean(),
  chatbot: z.boolean().describe('The bot (queue menu or options tree) is still talking to the contact; an attendant has not taken over.'),
  queueOptionId: refId.nullable().describe('Where the contact is in the queue menu tree.'),
  lastMessage: z.string().describe('Preview of the newest message: its text, else its file name or media kind.'),
  unreadMessages: z.number().int().nonnegative(),
  awaitingRating: z.boolean().describe('The rating question was sent and its answer is awaited.'),
  useIntegration: z.boolean(),
  flowId: refId.nullable().optional().describe('The flow the conversation is running (a flow builder flow), null when none.'),
  flowNodeId: z.string().nullable().optional().describe('The node of that flow the conversation is at (waiting there, or the last one run).'),
  promptId: refId.nullable(),
  integrationId: refId.nullable(),
  code: z.string().nullable(),
  tags: z.array(ticketTagSchema).describe('By name.'),
  lastInteractionAt: timestampSchema.nullable(),
  closedAt: timestampSchema.nullable(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  version: z.number().int().nonnegative().describe('Row version, bumped on every write (sync row versioning).'),
});
export type Ticket = z.infer<typeof ticketSchema>;

export type TicketPage = { tickets: Ticket[]; hasMore: boolean };

export const ticketKey = (id: number) => `ticket/${id}`;
