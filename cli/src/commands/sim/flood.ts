import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';
import { writeLine } from '../../output.ts';

const count = (what: string, max: number) => z.coerce.number().int().min(1).max(max).describe(what);

export default defineCommand({
  description: 'Simulator: N messages from M contacts to a connection, for demos and load',
  examples: ['zapdesk sim flood --to 3 --messages 200 --contacts 20', 'zapdesk sim flood --to 3 --messages 5000 --contacts 500 --concurrency 16 --json'],
  options: z.object({
    to: z.string().describe('the connection id'),
    messages: count('how many messages in all (default 100)', 1_000_000).default(100),
    contacts: count('how many different contacts send them (default 10)', 100_000).default(10),
    concurrency: count('requests in flight at once (default 8)', 64).default(8),
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
    const worker = async () => {
      while (next < options.messages) {
        const n = next++;
        const contact = n % options.contacts;
        const from = `${options.prefix}${String(contact).padStart(width, '0')}`;
        try {
          await api.post('/simulator/messages', { connectionId, from, name: `Contact ${contact + 1}`, body: `Message ${n + 1} from contact ${contact + 1}` });
          sent++;
        } catch (err) {
          failed++;
          const code = (err as { code?: string }).code ?? (err as Error).message;
          errors.set(code, (errors.get(code) ?? 0) + 1);
        }
        if (Date.now() - lastReport >= 1000) {
          lastReport = Date.now();
          writeLine(ctx.io.stderr, `${sent + failed}/${options.messages} sent, ${failed} failed`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, options.messages) }, worker));
    const seconds = (Date.now() - started) / 1000;
    return { sent, failed, contacts: options.contacts, seconds: Number(seconds.toFixed(2)), perSecond: Math.round(sent / Math.max(seconds, 0.001)), errors: Object.fromEntries(errors) };
  },
  show: (r) => ({
    kind: 'text',
    text: `Sent ${r.sent} messages from ${r.contacts} contacts in ${r.seconds}s (${r.perSecond}/s)${r.failed ? `; ${r.failed} failed: ${Object.entries(r.errors).map(([k, v]) => `${k} ×${v}`).join(', ')}` : ''}.`,
  }),
});
