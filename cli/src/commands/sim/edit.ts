import { simulatorEditSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { buildBody, parseId } from '../../input.ts';

export default defineCommand({
  description: 'Simulator: the contact edits the text of a message it sent (the chat shows the new text, marked edited)',
  examples: ["zapdesk sim edit --to 3 --message 3EB0A1B2C3D4E5F6A7B8 'I meant 4 boxes'"],
  args: [{ name: 'text', description: 'the new text' }],
  options: z.object({
    to: z.string().describe('the connection id'),
    message: z.string().describe('the WhatsApp id of the message (as `sim send` printed it)'),
  }),
  async run({ args, options }, ctx) {
    const body = await buildBody(ctx, simulatorEditSchema, undefined, { connectionId: parseId(options.to, 'connection'), messageId: options.message, body: args[0] });
    return ctx.api().post<{ id: string; kind: string }>('/simulator/edits', body);
  },
  show: (r) => ({ kind: 'text', text: `Edited message ${r.id}.` }),
});
