// The OpenAPI documents of the queue-integrations routes: the schemas their handlers parse (http/openapi/README.md).
import { messageAnswerSchema, pageSchema, queueIntegrationCreateSchema, queueIntegrationQuerySchema, queueIntegrationSchema, queueIntegrationUpdateSchema } from '@zapdesk/sync';
import { area } from '../../http/openapi/types.ts';

export const queueIntegrationsDocs = area('Queue Integrations', "Chatbots a queue hands conversations to: Typebot, n8n, webhooks, Dialogflow, flows (needs the plan's integrations).", {
  'GET /queueIntegration': { summary: 'A page of integrations', answer: pageSchema('queueIntegrations', queueIntegrationSchema), auth: ['bearer'], query: queueIntegrationQuerySchema, guarded: true, plan: 'integrations' },
  'POST /queueIntegration': { summary: 'Create an integration', answer: queueIntegrationSchema, auth: ['bearer'], body: queueIntegrationCreateSchema, status: 201, guarded: true, plan: 'integrations', errors: ['ERR_WEBHOOK_URL_FORBIDDEN'] },
  'GET /queueIntegration/:id': { summary: 'One integration', answer: queueIntegrationSchema, auth: ['bearer'], guarded: true, plan: 'integrations' },
  'PUT /queueIntegration/:id': { summary: 'Change an integration', answer: queueIntegrationSchema, auth: ['bearer'], body: queueIntegrationUpdateSchema, guarded: true, plan: 'integrations', errors: ['ERR_WEBHOOK_URL_FORBIDDEN'] },
  'DELETE /queueIntegration/:id': { summary: 'Delete an integration', auth: ['bearer'], answer: messageAnswerSchema, guarded: true, plan: 'integrations' },
});
