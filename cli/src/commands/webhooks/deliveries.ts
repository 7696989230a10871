import type { WebhookDelivery } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';
import { idArg } from '../shared.ts';
import { deliveryColumns } from './show.ts';

export default defineCommand({
  description: "A webhook's delivery log, newest first: state, attempts, HTTP status, duration",
  examples: ['zapdesk webhooks deliveries 3', "zapdesk webhooks deliveries 3 --limit 200 --json | jq '.[] | {event, state, attempts, responseStatus}'"],
  args: [idArg('webhook')],
  options: z.object({ limit: z.coerce.number().int().min(1).max(200).default(20).describe('how many (1 to 200, default 20)') }),
  async run({ args, options }, ctx) {
    const id = parseId(args[0], 'webhook');
    return (await ctx.api().get<{ deliveries: WebhookDelivery[] }>(`/webhooks/${id}/deliveries`, { query: { limit: options.limit } })).deliveries;
  },
  show: (rows) => ({ kind: 'table', columns: deliveryColumns, rows, empty: 'No deliveries yet.' }),
});
