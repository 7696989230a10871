// The OpenAPI documents of the prompts routes: the schemas their handlers parse (http/openapi/README.md).
import { messageAnswerSchema, promptCreateSchema, promptSchema, promptUpdateSchema, promptUsageQuerySchema, promptUsageSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

export const promptsDocs = area('Prompts', "AI assistants (OpenAI-compatible) that answer for a queue; the API key is stored sealed and only shown masked (needs the plan's AI).", {
  'GET /prompt': { summary: "The company's prompts", answer: z.object({ prompts: z.array(promptSchema) }), auth: ['bearer'], guarded: true, plan: 'openAi' },
  'GET /prompt/usage': { summary: 'What the assistants used in the last days', answer: promptUsageSchema, auth: ['bearer'], query: promptUsageQuerySchema, guarded: true, plan: 'openAi' },
  'GET /prompt/:id': { summary: 'One prompt', answer: promptSchema, auth: ['bearer'], guarded: true, plan: 'openAi' },
  'POST /prompt': { summary: 'Create a prompt', answer: promptSchema, auth: ['bearer'], body: promptCreateSchema, status: 201, guarded: true, plan: 'openAi' },
  'PUT /prompt/:id': { summary: 'Change a prompt', answer: promptSchema, auth: ['bearer'], body: promptUpdateSchema, guarded: true, plan: 'openAi' },
  'DELETE /prompt/:id': { summary: 'Delete a prompt', auth: ['bearer'], answer: messageAnswerSchema, guarded: true, plan: 'openAi' },
});
