// The OpenAPI documents of the queue-options routes: the schemas their handlers parse (http/openapi/README.md).
import { messageAnswerSchema, queueOptionCreateSchema, queueOptionListQuerySchema, queueOptionUpdateSchema, type QueueOption } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

const queueOptionSchema: z.ZodType<QueueOption> = z.object({
  id: z.number().int(),
  queueId: z.number().int(),
  parentId: z.number().int().nullable(),
  title: z.string(),
  message: z.string().nullable(),
  option: z.number().int().describe('1-based position among its siblings: what the customer types to pick it'),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.number().int(),
});

export const queueOptionsDocs = area('Queue Options', "A queue's menu: options the customer picks by number, nested.", {
  'GET /queue-options': { summary: 'The options of a queue (or of one option)', auth: ['bearer'], query: queueOptionListQuerySchema, answer: z.array(queueOptionSchema), errors: ['ERR_NOT_FOUND'] },
  'POST /queue-options': { summary: 'Add an option', auth: ['bearer'], body: queueOptionCreateSchema, status: 201, guarded: true, answer: queueOptionSchema, errors: ['ERR_NOT_FOUND'] },
  'PUT /queue-options/:id': { summary: 'Change an option', auth: ['bearer'], body: queueOptionUpdateSchema, guarded: true, answer: queueOptionSchema },
  'DELETE /queue-options/:id': { summary: 'Delete an option and those under it', auth: ['bearer'], answer: messageAnswerSchema, guarded: true },
});
