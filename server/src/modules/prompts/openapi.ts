// The OpenAPI documents of the prompts routes: the schemas their handlers parse (http/openapi/README.md).
import { messageAnswerSchema, promptCreateSchema, promptUpdateSchema, promptUsageQuerySchema } from '@zapdesk/sync';
import { area } from '../../http/openapi/types.ts';

export const promptsDocs = area('Prompts', '', {
  'GET /prompt': { auth: ['bearer'], guarded: true, plan: 'openAi' },
  'GET /prompt/usage': { auth: ['bearer'], query: promptUsageQuerySchema, guarded: true, plan: 'openAi' },
  'GET /prompt/:id': { auth: ['bearer'], guarded: true, plan: 'openAi' },
  'POST /prompt': { auth: ['bearer'], body: promptCreateSchema, status: 201, guarded: true, plan: 'openAi' },
  'PUT /prompt/:id': { auth: ['bearer'], body: promptUpdateSchema, guarded: true, plan: 'openAi' },
  'DELETE /prompt/:id': { auth: ['bearer'], answer: messageAnswerSchema, guarded: true, plan: 'openAi' },
});
