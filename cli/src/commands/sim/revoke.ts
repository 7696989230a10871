import { simulatorRevokeSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { buildBody, parseId } from '../../input.ts';

export default defineCommand({
  description: 'Simulator: the contact deletes a message it sent, for everyone (the chat shows it as deleted)',
  examples: ['zapdesk sim revoke --to 3 --message 3EB0A1B2C3D4E5F6A7B8'],
  options: z.object({
    to: z.string().describe('the connection id'),
    message: z.string().describe('the WhatsApp id of the message (as `sim send` printed it)'),
  }),
  async run({ options }, ctx) {
    const body = await buildBody(ctx, simulatorRevokeSchema, undefined, { connectionId: parseId(options.to, 'connection'), messageId: options.message });
    return ctx.api().post<{ id: string; kind: string }>('/simulator/revokes', body);
  },
  show: (r) => ({ kind: 'text', text: `Deleted message ${r.id} for everyone.` }),
});
