import { z } from 'zod';
import { timestampSchema } from './common.ts';

// Company webhooks (issue 18): an admin registers URLs that receive the company's events, signed
// with a secret shown once. One file for the request bodies, the wire shapes and the event names,
// shared by the server (validation), the CLI (flags) and the web page (form, log).

/** The events a webhook may subscribe to (the `event` of each delivery). */
export const WEBHOOK_EVENTS = [
  'message.received',
  'message.sent',
  'ticket.created',
  'ticket.status_changed',
  'ticket.transferred',
  'contact.created',
  'contact.updated',
  'campaign.finished',
  'payment.confirmed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The event of a delivery made by "send test". */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** Webhooks per company at most (each event is copied once per subscribed webhook). */
export const MAX_WEBHOOKS_PER_COMPANY = 20;

// Only http(s); the host must be a name or an address (no credentials in the URL: a log shows it).
const webhookUrlSchema = z
  .string({ error: 'Required' })
  .trim()
  .max(2000, 'Too Long!')
  .pipe(z.url({ protocol: /^https?$/, error: 'Give an http(s) link' }))
  .refine((u) => !/^[a-z]+:\/\/[^/]*@/i.test(u), 'No user or password in the link');

const eventsSchema = z.array(z.enum(WEBHOOK_EVENTS, { error: 'Unknown event' })).min(1, 'Pick at least one event').max(WEBHOOK_EVENTS.length).transform((list) => [...new Set(list)]);

export const webhookCreateSchema = z.object({
  name: z.string({ error: 'Required' }).trim().min(2, 'Too Short!').max(50, 'Too Long!'),
  url: webhookUrlSchema,
  events: eventsSchema,
  enabled: z.boolean().optional().default(true),
});
export type WebhookCreateInput = z.infer<typeof webhookCreateSchema>;

export const webhookUpdateSchema = z.object({
  name: z.string().trim().min(2, 'Too Short!').max(50, 'Too Long!').optional(),
  url: webhookUrlSchema.optional(),
  events: eventsSchema.optional(),
  enabled: z.boolean().optional(),
  /** true: a new signing secret (answered in full once, like on create). */
  rotateSecret: z.boolean().optional(),
});
export type WebhookUpdateInput = z.infer<typeof webhookUpdateSchema>;

export const webhookSchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  /** Masked (`••••abcd`), except in the answer of the write that made it. */
  secret: z.string(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Webhook = z.infer<typeof webhookSchema>;

export const WEBHOOK_DELIVERY_STATES = ['queued', 'running', 'done', 'failed'] as const;

export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  webhookId: z.number().int(),
  /** The same on every attempt of this event: receivers de-duplicate on it. */
  eventId: z.string(),
  event: z.string(),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number().int(),
  /** The receiver's HTTP status of the last attempt; null when it did not answer. */
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: timestampSchema,
  deliveredAt: timestampSchema.nullable(),
  nextAttemptAt: timestampSchema.nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).optional().default(50),
});

/** What a receiver gets as the JSON body of every delivery. */
export type WebhookPayload = {
  /** Stable across redeliveries of this event (de-duplicate on it). */
  id: string;
  event: string;
  companyId: number;
  /** When the event happened (ISO-8601, UTC). */
  timestamp: string;
  /** The record as its REST GET answers it (`{id}` only when it was deleted). */
  data: unknown;
};
