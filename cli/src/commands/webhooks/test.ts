import type { WebhookDelivery } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';
import { idArg } from '../shared.ts';

export default defineCommand({
  description: 'Send a test delivery (event webhook.test) now; --wait shows how it went',
  examples: ['zapdesk webhooks test 3', 'zapdesk webhooks test 3 --wait --json'],
  args: [idArg('webhook')],
  options: z.object({ wait: z.boolean().default(false).describe('wait (up to 15 s) for its first attempt and show the answer') }),
  async run({ args, options }, ctx) {
    const id = parseId(args[0], 'webhook');
    const api = ctx.api();
    const queued = await api.post<WebhookDelivery>(`/webhooks/${id}/test`, {});
    if (!options.wait) return queued;
    const until = Date.now() + 15_000;
    for (;;) {
      const { deliveries } = await api.get<{ deliveries: WebhookDelivery[] }>(`/webhooks/${id}/deliveries`, { query: { limit: 50 } });
      const now = deliveries.find((d) => d.id === queued.id) ?? queued;
      if (now.attempts > 0 && now.state !== 'running') return now;
      if (Date.now() > until) return now;
      await new Promise((r) => setTimeout(r, 200));
    }
  },
  show: (d) => ({
    kind: 'text',
    text:
      d.attempts === 0
        ? `Test delivery ${d.id} queued (event id ${d.eventId}).`
        : d.state === 'done'
          ? `Test delivery ${d.id} delivered: HTTP ${d.responseStatus} in ${d.durationMs} ms.`
          : `Test delivery ${d.id} not delivered yet (${d.state}, ${d.attempts} attempt(s)): ${d.error ?? 'no answer'}.`,
  }),
});
