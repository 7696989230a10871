import { AppError, TICKET_STATUSES, type SessionUser, type Ticket } from '@zapdesk/sync';
import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { defineCommand } from '../../define.ts';
import { UsageError } from '../../errors.ts';
import { parseId } from '../../input.ts';
import { untilQuit } from '../../live/quit.ts';
import { watchTickets } from '../../live/tickets.ts';
import { createWatchScreen } from './watch-screen.ts';

export default defineCommand({
  description: 'Watch your open and pending tickets change live (q or Ctrl-C to quit)',
  examples: ['zapdesk tickets watch', 'zapdesk tickets watch --status pending --queue-ids 1,2', "zapdesk tickets watch --json | jq -c 'select(.event == \"added\") | .ticket.id'"],
  // Its own --json: one object per change as it happens, not one document at the end.
  noJson: true,
  options: z.object({
    status: z.enum(TICKET_STATUSES.filter((s) => s !== 'closed') as ['pending', 'open']).optional().describe('only tickets in this status'),
    queueIds: z.string().optional().describe('only these queues, comma-separated ids (1,4,7)'),
    for: z.coerce.number().int().min(1).max(86_400).optional().describe('stop after this many seconds'),
    json: z.boolean().default(false).describe('one JSON object per change ({event: added|changed|removed, ticket|id}) instead of lines'),
  }),
  async run({ options }, ctx) {
    const queueIds = options.queueIds?.split(',').map((s) => parseId(s.trim(), 'queue'));
    if (queueIds?.length === 0) throw new UsageError("option '--queue-ids': give at least one id");
    const keep = (t: Ticket) => (!options.status || t.status === options.status) && (!queueIds || (t.queueId !== null && queueIds.includes(t.queueId)));
    const api = ctx.api();
    const me = await currentUser(api);
    const screen = await createWatchScreen(ctx, ctx.interactive && !options.json ? 'live' : options.json ? 'json' : 'lines');
    const watch = await watchTickets(ctx, api, { userId: me.id, companyId: me.companyId }, (tickets, state) => screen.update(tickets.filter(keep), state)).catch((err: unknown) => {
      screen.close();
      throw err;
    });
    try {
      await untilQuit(ctx, options.for);
    } finally {
      await watch.stop();
      screen.close();
    }
    return undefined;
  },
});

/** The signed-in user (ZAPDESK_TOKEN says nothing about who it is), refreshing an expired token once. */
async function currentUser(api: ReturnType<Ctx['api']>): Promise<SessionUser> {
  return api.get<SessionUser>('/auth/me').catch(async (err: unknown) => {
    if (!(err instanceof AppError && err.code === 'ERR_TOKEN_EXPIRED')) throw err;
    await api.refresh();
    return api.get<SessionUser>('/auth/me');
  });
}
