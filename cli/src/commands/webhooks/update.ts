import type { Webhook } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { UsageError } from '../../errors.ts';
import { parseId } from '../../input.ts';
import { idArg } from '../shared.ts';
import { eventList, eventsOption } from './options.ts';
import { showWebhook } from './show.ts';

export default defineCommand({
  description: 'Change a webhook: name, URL, events, on or off, or a new secret (--rotate-secret, shown once)',
  examples: ['zapdesk webhooks update 3 --events ticket.created,ticket.status_changed', 'zapdesk webhooks update 3 --disable', 'zapdesk webhooks update 3 --rotate-secret'],
  args: [idArg('webhook')],
  options: z.object({
    name: z.string().optional().describe('new name'),
    url: z.string().optional().describe('new http(s) address'),
    events: eventsOption.optional(),
    enable: z.boolean().default(false).describe('switch it on'),
    disable: z.boolean().default(false).describe('switch it off (no deliveries are queued meanwhile)'),
    rotateSecret: z.boolean().default(false).describe('a new signing secret, shown once'),
  }),
  run({ args, options }, ctx) {
    const id = parseId(args[0], 'webhook');
    if (options.enable && options.disable) throw new UsageError('--enable and --disable together: pick one');
    const body = {
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(options.url !== undefined ? { url: options.url } : {}),
      ...(options.events !== undefined ? { events: eventList(options.events) } : {}),
      ...(options.enable ? { enabled: true } : options.disable ? { enabled: false } : {}),
      ...(options.rotateSecret ? { rotateSecret: true } : {}),
    };
    if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give --name, --url, --events, --enable, --disable or --rotate-secret');
    return ctx.api().put<Webhook>(`/webhooks/${id}`, body);
  },
  show: showWebhook,
});
