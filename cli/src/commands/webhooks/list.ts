import type { Webhook } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { webhookColumns } from './show.ts';

export default defineCommand({
  description: "List your company's webhooks (admins)",
  examples: ['zapdesk webhooks list', "zapdesk webhooks list --json | jq '.[].url'"],
  options: z.object({}),
  run: (_input, ctx) => ctx.api().get<Webhook[]>('/webhooks'),
  show: (rows) => ({ kind: 'table', columns: webhookColumns, rows, empty: 'No webhooks yet: zapdesk webhooks create --name … --url … --events …' }),
});
