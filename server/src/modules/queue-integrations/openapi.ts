// The OpenAPI documents of the queue-integrations routes: the schemas their handlers parse (http/openapi/README.md).
import { messageAnswerSchema, queueIntegrationCreateSchema, queueIntegrationQuerySchema, queueIntegrationUpdateSchema } from '@zapdesk/sync';
import { area } from '../../http/openapi/types.ts';

export const queueIntegrationsDocs = area('Queue Integrations', '', {
  'GET /queueIntegration': { auth: ['bearer'], query: queueIntegrationQuerySchema, guarded: true, plan: 'integrations' },
  'POST /queueIntegration': { auth: ['bearer'], body: queueIntegrationCreateSchema, status: 201, guarded: true, plan: 'integrations' },
  'GET /queueIntegration/:id': { auth: ['bearer'], guarded: true, plan: 'integrations' },
  'PUT /queueIntegration/:id': { auth: ['bearer'], body: queueIntegrationUpdateSchema, guarded: true, plan: 'integrations' },
  'DELETE /queueIntegration/:id': { auth: ['bearer'], answer: messageAnswerSchema, guarded: true, plan: 'integrations' },
});
