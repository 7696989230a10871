import { simulatorMessageSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { buildBody, parseId } from '../../input.ts';

export default defineCommand({
  description: 'Simulator: a contact sends a text to a connection (it arrives as a real inbound message)',
  examples: ["zapdesk sim send --from 5511988887777 --to 3 'Hello, I need help'", "zapdesk sim send --from 5511988887777 --name 'Maria' --to 3 'Oi'"],
  args: [{ name: 'text', description: 'the message' }],
  options: z.object({
    from: z.string().describe("the contact's number (digits)"),
    to: z.string().describe('the connection id'),
    name: z.string().optional().describe("the contact's WhatsApp name"),
  }),
  async run({ args, options }, ctx) {
    const body = await buildBody(ctx, simulatorMessageSchema, undefined, { connectionId: parseId(options.to, 'connection'), from: options.from, name: options.name, body: args[0] });
    return ctx.api().post<{ id?: string }>('/simulator/messages', body);
  },
  show: (r) => ({ kind: 'text', text: `Delivered${r?.id ? ` (message ${r.id})` : ''}.` }),
});
