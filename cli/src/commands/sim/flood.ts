import { AppError, SIMULATOR_BURST_MAX } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';
import { writeLine } from '../../output.ts';

const count = (what: string, max: number) => z.coerce.number().int().min(1).max(max).describe(what);

export default defineCommand({
  description: 'Simulator: N messages from M contacts to a connection, for demos and load',
  examples: [
    'zapdesk sim flood --to 3 --messages 200 --contacts 20',
    'zapdesk sim flood --to 3 --messages 5000 --contacts 500 --concurrency 16 --json',
    'zapdesk sim flood --to 3 --messages 100000 --contacts 2000 --burst 50',
  ],
  options: z.object({
    to: z.string().describe('the connection id'),
    messages: count('how many messages in all (default 100)', 1_000_000).default(100),
    contacts: count('how many different contacts send them (default 10)', 100_000).default(10),
    concurrency: count('requests in flight at once (default 8)', 64).default(8),
    burst: count('messages a request carries, arriving together as a busy number gets them (default 1; up to 500)', SIMULATOR_BURST_MAX).default(1),
    prefix: z.string().regex(/^\d{4,12}$/, 'digits only').default('55119000').describe('first digits of the generated numbers'),
  }),
  async run({ options }, ctx) {
    const connectionId = parseId(options.to, 'connection');
    const api = ctx.api();
    const width = String(options.contacts).length + 1;
    const started = Date.now();
    let sent = 0;
    let failed = 0;
    let next = 0;
    let lastReport = started;
    const errors = new Map<string, number>();
    // A refusal that every request would meet alike (the session ended, no such connection, no
    // right to it) stops the flood with the server's word; a busy server's 429s and 5xx, and
    // network failures, are counted and the flood goes on.
    let refused: unknown;
    const message = (n: number) => {
      const contact = n % options.contacts;
      return { from: `${options.prefix}${String(contact).padStart(width, '0')}`, name: `Contact ${contact + 1}`, body: `Message ${n + 1} from contact ${contact + 1}` };
    };
    // One message a request (POST /simulator/messages), or up to --burst of them together.
    const post = (first: number, size: number) =>
      size === 1 && options.burst === 1
        ? api.post('/simulator/messages', { connectionId, ...message(first) })
        : api.post(`/simulator/connections/${connectionId}/messages`, { messages: Array.from({ length: size }, (_, k) => message(first + k)) });
    const worker = async () => {
      while (next < options.messages && refused === undefined) {
        const first = next;
        const size = Math.min(options.burst, options.messages - first);
        next += size;
        try {
          await post(first, size);
          sent += size;
        } catch (err) {
          if (err instanceof AppError && err.status < 500 && err.status !== 429) {
            refused ??= err;
            return;
          }
          failed += size;
          const code = (err as { code?: string }).code ?? (err as Error).message;
          errors.set(code, (errors.get(code) ?? 0) + size);
        }
        if (Date.now() - lastReport >= 1000) {
          lastReport = Date.now();
          writeLine(ctx.io.stderr, `${sent + failed}/${options.messages} sent, ${failed} failed`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, Math.ceil(options.messages / options.burst)) }, worker));
    if (refused !== undefined) throw refused;
    const seconds = (Date.now() - started) / 1000;
    return { sent, failed, contacts: options.contacts, seconds: Number(seconds.toFixed(2)), perSecond: Math.round(sent / Math.max(seconds, 0.001)), errors: Object.fromEntries(errors) };
  },
  show: (r) => ({
    kind: 'text',
    text: `Sent ${r.sent} messages from ${r.contacts} contacts in ${r.seconds}s (${r.perSecond}/s)${r.failed ? `; ${r.failed} failed: ${Object.entries(r.errors).map(([k, v]) => `${k} ×${v}`).join(', ')}` : ''}.`,
  }),
});
