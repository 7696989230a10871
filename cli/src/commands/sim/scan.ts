import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';

export default defineCommand({
  description: 'Simulator: scan the QR a connection is showing, as a phone would (server with SIMULATOR=1)',
  examples: ['zapdesk sim scan 3', 'zapdesk sim scan 3 --number 5511999990000'],
  args: [{ name: 'connection', description: 'connection id' }],
  options: z.object({ number: z.string().optional().describe("the phone's number (digits)") }),
  async run({ args, options }, ctx) {
    const id = parseId(args[0], 'connection');
    return ctx.api().post<{ id: number; status: string }>(`/simulator/connections/${id}/scan`, { number: options.number });
  },
  show: (r) => ({ kind: 'text', text: `Scanned connection ${r.id}: ${r.status}.` }),
});
