// The OpenAPI documents of the company webhooks routes: the schemas their handlers parse (http/openapi/README.md).
import { messageAnswerSchema, webhookCreateSchema, webhookDeliveriesQuerySchema, webhookDeliverySchema, webhookSchema, webhookUpdateSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

export const webhooksDocs = area(
  'Webhooks',
  "URLs the company's events are posted to, HMAC-signed (X-Zapdesk-Signature), retried with backoff, in order per ticket; the signing secret is shown in full only by the write that made it (admins).",
  {
    'GET /webhooks': { summary: "The company's webhooks", answer: z.array(webhookSchema), auth: ['bearer'], guarded: true },
    'GET /webhooks/:id': { summary: 'One webhook', answer: webhookSchema, auth: ['bearer'], guarded: true },
    'POST /webhooks': { summary: 'Register a webhook (its secret is in this answer only)', answer: webhookSchema, auth: ['bearer'], body: webhookCreateSchema, status: 201, guarded: true, errors: ['ERR_WEBHOOK_URL_FORBIDDEN'] },
    'PUT /webhooks/:id': { summary: 'Change a webhook (rotateSecret: a new secret, in this answer only)', answer: webhookSchema, auth: ['bearer'], body: webhookUpdateSchema, guarded: true, errors: ['ERR_WEBHOOK_URL_FORBIDDEN'] },
    'DELETE /webhooks/:id': { summary: 'Delete a webhook and its delivery log', answer: messageAnswerSchema, auth: ['bearer'], guarded: true },
    'POST /webhooks/:id/test': { summary: 'Queue a test delivery (event webhook.test)', answer: webhookDeliverySchema, auth: ['bearer'], status: 202, guarded: true },
    'GET /webhooks/:id/deliveries': { summary: 'The delivery log, newest first', answer: z.object({ deliveries: z.array(webhookDeliverySchema) }), auth: ['bearer'], query: webhookDeliveriesQuerySchema, guarded: true },
  },
);
