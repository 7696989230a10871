import type { Connection } from '@zapdesk/sync';
import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { defineCommand } from '../../define.ts';
import { UserError } from '../../errors.ts';
import { parseId } from '../../input.ts';
import { watchConnection, type ConnectionState } from '../../live/connection.ts';
import { writeLine } from '../../output.ts';
import { idArg } from '../shared.ts';
import { companyScope, scopeQuery } from './options.ts';
import { createPairScreen } from './pair-screen.ts';

export default defineCommand({
  description: 'Pair a connection: draws the QR here and redraws it as new ones arrive, until CONNECTED (exit 0) or TIMEOUT (exit 1)',
  examples: ['zapdesk connections pair 3', 'zapdesk connections pair 3 --timeout 120', 'zapdesk connections pair 3 --json 2>/dev/null | jq -r .status'],
  args: [idArg('connection')],
  options: companyScope.extend({
    timeout: z.coerce.number().int().min(5).max(3600).default(300).describe('give up after this many seconds (default 300)'),
    poll: z.boolean().default(false).describe('poll GET /whatsapp/{id} instead of the live sync client'),
  }),
  async run({ args, options }, ctx) {
    const id = parseId(args[0], 'connection');
    const api = ctx.api();
    const query = scopeQuery(options.companyId);
    let conn = await api.get<Connection>(`/whatsapp/${id}`, { query });
    if (conn.status === 'CONNECTED') return { id, name: conn.name, status: conn.status, number: conn.number };
    // A session that is not showing a QR is started; one that is keeps its QR (no needless restart).
    if (conn.status !== 'qrcode') conn = await api.post<Connection>(`/whatsappsession/${id}`, undefined, { query });

    const json = Boolean((options as { json?: boolean }).json);
    const screen = await createPairScreen(ctx, { id, name: conn.name, live: ctx.interactive && !json });
    // The QR already known is drawn at once, before the live client has synced.
    if (conn.status === 'qrcode' && conn.qrcode) await screen.update({ id, name: conn.name, status: conn.status, qrcode: conn.qrcode, retries: conn.retries ?? 0 });
    const final = await waitForOutcome(ctx, options.timeout * 1000, (onChange) =>
      watchConnection(
        ctx,
        api,
        {
          id,
          companyId: conn.companyId,
          userId: ctx.config.userId,
          ownCompany: !ctx.io.env.ZAPDESK_TOKEN && conn.companyId === ctx.config.companyId,
          poll: options.poll,
        },
        (state) => {
          void screen.update(state);
          onChange(state);
        },
      ),
    ).finally(() => screen.close());
    if (final.status !== 'CONNECTED') throw new UserError(`connection ${id} (${conn.name}) did not pair: ${final.status}`);
    // The server has the last word: the exit code and the line say what it answers now.
    const now = await api.get<Connection>(`/whatsapp/${id}`, { query: { ...query, session: 0 } });
    if (now.status !== 'CONNECTED') throw new UserError(`connection ${id} (${now.name}) did not pair: ${now.status}`);
    return { id, name: now.name, status: now.status, number: now.number };
  },
  show: (c) => ({ kind: 'text', text: `Connected: ${c.name} (connection ${c.id})${c.number ? `, number ${c.number}` : ''}.` }),
});

// 'cancelled': the user pressed Ctrl-C.
type Outcome = { status: ConnectionState['status'] | 'cancelled' };

/** Resolves at CONNECTED or TIMEOUT, or when the --timeout runs out (as TIMEOUT). */
async function waitForOutcome(
  ctx: Ctx,
  timeoutMs: number,
  start: (onChange: (s: ConnectionState) => void) => Promise<{ stop(): Promise<void> }>,
): Promise<Outcome> {
  let settle!: (o: Outcome) => void;
  const done = new Promise<Outcome>((resolve) => (settle = resolve));
  const watch = await start((s) => {
    if (s.status === 'CONNECTED' || s.status === 'TIMEOUT') settle({ status: s.status });
  });
  const timer = setTimeout(() => settle({ status: 'TIMEOUT' }), timeoutMs);
  const onSigint = () => settle({ status: 'cancelled' });
  process.once('SIGINT', onSigint);
  try {
    return await done;
  } finally {
    clearTimeout(timer);
    process.off('SIGINT', onSigint);
    await watch.stop();
    if (!ctx.interactive) writeLine(ctx.io.stderr, '');
  }
}
