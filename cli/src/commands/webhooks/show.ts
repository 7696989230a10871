// How a webhook and its deliveries look in the terminal.
import type { Webhook, WebhookDelivery } from '@zapdesk/sync';
import { column, type Shown } from '../../present.ts';

export function showWebhook(w: Webhook): Shown {
  return {
    kind: 'record',
    title: `Webhook ${w.id}`,
    fields: [
      ['name', w.name],
      ['url', w.url],
      ['events', w.events.join(', ')],
      ['enabled', w.enabled ? 'yes' : 'no'],
      // In full only in the answer of the write that made it: keep it now, it is masked after.
      ['secret', w.secret.startsWith('whsec_') ? `${w.secret}  (shown once: keep it to check signatures)` : w.secret],
    ],
  };
}

export const webhookColumns = [
  column<Webhook>('id', (w) => w.id),
  column<Webhook>('name', (w) => w.name),
  column<Webhook>('url', (w) => w.url),
  column<Webhook>('events', (w) => w.events.join(', ')),
  column<Webhook>('enabled', (w) => (w.enabled ? 'yes' : 'no')),
];

export const deliveryColumns = [
  column<WebhookDelivery>('id', (d) => d.id),
  column<WebhookDelivery>('event', (d) => d.event),
  column<WebhookDelivery>('state', (d) => d.state),
  column<WebhookDelivery>('attempts', (d) => d.attempts),
  column<WebhookDelivery>('status', (d) => d.responseStatus ?? '-'),
  column<WebhookDelivery>('ms', (d) => d.durationMs ?? '-'),
  column<WebhookDelivery>('at', (d) => d.deliveredAt ?? d.nextAttemptAt ?? d.createdAt),
  column<WebhookDelivery>('error', (d) => d.error ?? ''),
];
