// The OpenAPI documents of the queues routes: the schemas their handlers parse (http/openapi/README.md).
import { companyScopeQuerySchema, messageAnswerSchema, queueCreateSchema, queueSchema, queueUpdateSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

export const queuesDocs = area('Queues', 'Departments: a connection offers its queues to customers, and attendants see the tickets of theirs. A super-admin may name another company with companyId.', {
  'GET /queue': { summary: "The company's queues", auth: ['bearer'], query: companyScopeQuerySchema, answer: z.array(queueSchema), errors: ['ERR_NO_COMPANY_FOUND'] },
  'GET /queue/:id': { summary: 'One queue', auth: ['bearer'], query: companyScopeQuerySchema, answer: queueSchema, errors: ['ERR_NO_COMPANY_FOUND'] },
  'POST /queue': {
    summary: 'Create a queue',
    auth: ['bearer'],
    query: companyScopeQuerySchema,
    body: queueCreateSchema,
    status: 201,
    guarded: true,
    answer: queueSchema,
    errors: ['ERR_QUEUE_COLOR_ALREADY_EXISTS', 'ERR_WAPP_GREETING_REQUIRED', 'ERR_NO_COMPANY_FOUND'],
  },
  'PUT /queue/:id': {
    summary: 'Change a queue',
    auth: ['bearer'],
    query: companyScopeQuerySchema,
    body: queueUpdateSchema,
    guarded: true,
    answer: queueSchema,
    errors: ['ERR_QUEUE_COLOR_ALREADY_EXISTS', 'ERR_WAPP_GREETING_REQUIRED', 'ERR_NO_COMPANY_FOUND'],
  },
  'DELETE /queue/:id': { summary: 'Delete a queue (its tickets keep no queue)', auth: ['bearer'], query: companyScopeQuerySchema, answer: messageAnswerSchema, guarded: true, errors: ['ERR_NO_COMPANY_FOUND'] },
});
