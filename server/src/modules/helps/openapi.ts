// The OpenAPI documents of the helps routes: the schemas their handlers parse (http/openapi/README.md).
import { helpCreateSchema, helpUpdateSchema, messageAnswerSchema, type Help } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

const helpSchema: z.ZodType<Help> = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  video: z.string().nullable().describe('A YouTube video id'),
  link: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const helpsDocs = area('Helps', "Help videos the platform's super-admin publishes for every company.", {
  'GET /helps': { summary: 'Every help video', answer: z.array(helpSchema), auth: ['bearer'] },
  'GET /helps/list': { summary: 'Every help video (the list the help page reads)', answer: z.array(helpSchema), auth: ['bearer'] },
  'POST /helps': { summary: 'Publish a help video (super-admin)', answer: helpSchema, auth: ['bearer'], body: helpCreateSchema, status: 201, guarded: true },
  'PUT /helps/:id': { summary: 'Change a help video (super-admin)', answer: helpSchema, auth: ['bearer'], body: helpUpdateSchema, guarded: true, errors: ['ERR_NO_HELP_FOUND'] },
  'DELETE /helps/:id': { summary: 'Delete a help video (super-admin)', auth: ['bearer'], answer: messageAnswerSchema, guarded: true, errors: ['ERR_NO_HELP_FOUND'] },
});
