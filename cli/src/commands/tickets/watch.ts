import { AppError, TICKET_STATUSES, type SessionUser, type Ticket } from '@zapdesk/sync';
import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { defineCommand } from '../../define.ts';
import { UsageError } from '../../errors.ts';
import { parseId } from '../../input.ts';
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

const CTRL_C = String.fromCharCode(3);

/** Resolves on q (a key on a TTY, a line elsewhere), Ctrl-C, SIGINT, SIGTERM or after `seconds`. */
function untilQuit(ctx: Ctx, seconds: number | undefined): Promise<void> {
  const { stdin } = ctx.io;
  return new Promise<void>((resolve) => {
    const raw = Boolean(stdin.isTTY && stdin.setRawMode);
    const onData = (chunk: Buffer | string) => {
      const text = String(chunk);
      // Raw mode delivers Ctrl-C as the byte 3 instead of a SIGINT.
      if (raw ? /[qQ]/.test(text) || text.includes(CTRL_C) : /^\s*q\s*$/im.test(text)) finish();
    };
    const timer = seconds ? setTimeout(() => finish(), seconds * 1000) : undefined;
    function finish() {
      clearTimeout(timer);
      process.off('SIGINT', finish);
      process.off('SIGTERM', finish);
      stdin.off('data', onData);
      if (raw) stdin.setRawMode!(false);
      // A paused pipe still holds the event loop open until the writer closes it: the process
      // would wait for the end of an input that may never come (`q` typed into a long-lived pipe).
      if (raw) stdin.pause();
      else stdin.destroy();
      resolve();
    }
    process.once('SIGINT', finish);
    process.once('SIGTERM', finish);
    if (raw) stdin.setRawMode!(true);
    stdin.on('data', onData);
    stdin.resume();
  });
}
