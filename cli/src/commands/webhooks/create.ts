import type { Webhook } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { eventList, eventsOption } from './options.ts';
import { showWebhook } from './show.ts';

export default defineCommand({
  description: 'Register a URL for events; its signing secret is shown once',
  examples: [
    "zapdesk webhooks create --name CRM --url https://crm.example.com/zapdesk --events ticket.created,message.received",
    'zapdesk webhooks create --name Audit --url https://audit.example.com/h --events contact.created --disabled --json',
  ],
  options: z.object({
    name: z.string().describe('what it is for (2 to 50 characters)'),
    url: z.string().describe('http(s) address that receives the POSTs'),
    events: eventsOption,
    disabled: z.boolean().default(false).describe('create it switched off'),
  }),
  run: ({ options }, ctx) => ctx.api().post<Webhook>('/webhooks', { name: options.name, url: options.url, events: eventList(options.events), enabled: !options.disabled }),
  show: showWebhook,
});
