import { AppError, TICKET_STATUSES, type SessionUser, type Ticket } from '@zapdesk/sync';
import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { defineCommand } from '../../define.ts';
import { UsageError } from '../../errors.ts';
import { parseId } from '../../input.ts';
import { quitSignal } from '../../live/quit.ts';
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
    // Listening starts before the first request: a Ctrl-C while the view sets itself up abandons
    // the setup, stops what it started and exits 0, rather than the default handler killing the
    // process halfway.
    const quit = quitSignal(ctx, options.for);
    try {
      const me = await currentUser(api, quit.signal);
      const screen = await createWatchScreen(ctx, ctx.interactive && !options.json ? 'live' : options.json ? 'json' : 'lines');
      try {
        const watch = await watchTickets(ctx, api, { userId: me.id, companyId: me.companyId }, (tickets, state) => screen.update(tickets.filter(keep), state), quit.signal);
        try {
          await quit.done;
        } finally {
          await watch.stop();
        }
      } finally {
        screen.close();
      }
    } catch (err) {
      // What failed after the person quit was being abandoned on purpose.
      if (!quit.signal.aborted) throw err;
    } finally {
      quit.stop();
    }
    return undefined;
  },
});

/** The signed-in user (ZAPDESK_TOKEN says nothing about who it is), refreshing an expired token once. */
async function currentUser(api: ReturnType<Ctx['api']>, signal: AbortSignal): Promise<SessionUser> {
  return api.get<SessionUser>('/auth/me', { signal }).catch(async (err: unknown) => {
    if (!(err instanceof AppError && err.code === 'ERR_TOKEN_EXPIRED')) throw err;
    await api.refresh();
    return api.get<SessionUser>('/auth/me', { signal });
  });
}
