import { TICKET_STATUSES, ticketListQuerySchema, type Ticket, type TicketPage } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { UsageError } from '../../errors.ts';
import { firstFlagProblem, flagOf } from '../../options.ts';
import { ticketColumns } from './show.ts';

const ids = (what: string) => z.string().optional().describe(`${what} ids, comma-separated (1,4,7)`);

// Flag → GET /tickets query parameter; the values are checked by the server's own schema.
const QUERY_OF = { search: 'searchParam', page: 'pageNumber', status: 'status', queueIds: 'queueIds', tags: 'tags', users: 'users', date: 'date', updated: 'updatedAt', showAll: 'showAll', unread: 'withUnreadMessages', groups: 'isGroup' } as const;

export const ticketFilterOptions = z.object({
  status: z.enum(TICKET_STATUSES).optional().describe('only tickets in this status'),
  queueIds: ids('queue'),
  tags: ids('tag'),
  users: ids('user'),
  search: z.string().optional().describe("words of the contact's name or number, or of the messages"),
  date: z.string().optional().describe('created on this UTC day (YYYY-MM-DD)'),
  updated: z.string().optional().describe('updated on this UTC day (YYYY-MM-DD)'),
  showAll: z.boolean().optional().describe("every user's tickets (admins and users allowed to see all)"),
  unread: z.boolean().default(false).describe('only tickets with unread messages (yours or unassigned)'),
  groups: z.boolean().optional().describe('only group chats (--no-groups: none)'),
});

/** The query of GET /tickets from the flags, refused here (exit 2, naming the flag) when the server would refuse it. */
export function ticketQuery(options: z.output<typeof ticketFilterOptions> & { page?: number }) {
  const raw = Object.fromEntries(
    Object.entries(QUERY_OF)
      .map(([flag, param]) => [param, (options as Record<string, unknown>)[flag]])
      // --unread is a switch: off means no filter, not "only read ones".
      .filter(([param, v]) => v !== undefined && !(param === 'withUnreadMessages' && v === false)),
  );
  const parsed = ticketListQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const flagFor = (param: string) => flagOf(Object.entries(QUERY_OF).find(([, p]) => p === param)?.[0] ?? param);
    throw new UsageError(firstFlagProblem(parsed.error, raw, flagFor));
  }
  // Sent as the flags gave them (lists joined): the server parses them with the same schema.
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, String(v)]));
}

export default defineCommand({
  description: 'List tickets with the filters of the web (40 a page, newest activity first)',
  examples: [
    'zapdesk tickets list --status open',
    'zapdesk tickets list --status pending --queue-ids 1,2 --unread',
    'zapdesk tickets list --search maria --show-all --page 2',
    "zapdesk tickets list --status open --all --json | jq '.tickets | map(.id)'",
  ],
  options: ticketFilterOptions.extend({
    page: z.coerce.number().int().min(1).default(1).describe('page of 40 (default 1)'),
    all: z.boolean().default(false).describe('every page from --page on'),
  }),
  async run({ options }, ctx) {
    const api = ctx.api();
    const tickets: Ticket[] = [];
    let page = options.page;
    for (;;) {
      const answer = await api.get<TicketPage>('/tickets', { query: ticketQuery({ ...options, page }) });
      tickets.push(...answer.tickets);
      if (!answer.hasMore || answer.tickets.length === 0) return { tickets, hasMore: false, nextPage: null };
      if (!options.all) return { tickets, hasMore: true, nextPage: page + 1 };
      page++;
    }
  },
  show: (r) => ({
    kind: 'table',
    columns: ticketColumns,
    rows: r.tickets,
    empty: 'No tickets found.',
    footer: r.nextPage ? `more: --page ${r.nextPage} (or --all)` : undefined,
  }),
});
