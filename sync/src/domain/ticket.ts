import { z } from 'zod';
import { idSchema, queryBool } from './common.ts';
import type { Contact } from './contact.ts';

// Tickets (spec/02 §3, §4, §7): statuses, the list filters of GET /tickets, the bodies of POST and
// PUT /tickets, and the ticket shape every client reads.

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

export type TicketTag = { id: number; name: string; color: string };

export type Ticket = {
  id: number;
  uuid: string;
  status: TicketStatus;
  userId: number | null;
  user: { id: number; name: string } | null;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  whatsappId: number | null;
  whatsapp: { id: number; name: string; status: string } | null;
  contactId: number;
  contact: Pick<Contact, 'id' | 'name' | 'number' | 'email' | 'profilePicUrl' | 'isGroup' | 'disableBot'>;
  isGroup: boolean;
  chatbot: boolean;
  queueOptionId: number | null;
  lastMessage: string;
  unreadMessages: number;
  awaitingRating: boolean;
  useIntegration: boolean;
  promptId: number | null;
  integrationId: number | null;
  code: string | null;
  tags: TicketTag[];
  lastInteractionAt: string | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
};

export type TicketPage = { tickets: Ticket[]; hasMore: boolean };

export const ticketKey = (id: number) => `ticket/${id}`;
