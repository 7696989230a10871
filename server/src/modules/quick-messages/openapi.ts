// The OpenAPI documents of the quick-messages routes: the schemas their handlers parse (http/openapi/README.md).
import { messageAnswerSchema, pageSchema, quickMessageAllQuerySchema, quickMessageCreateSchema, quickMessageListQuerySchema, quickMessageSchema, quickMessageUpdateSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area, FILE_ANSWER } from '../../http/openapi/types.ts';

export const quickMessagesDocs = area('Quick Messages', "Saved answers an attendant inserts by typing / in the chat, personal or shared with the company, optionally with a file.", {
  'GET /quick-messages': { summary: 'A page of the quick messages the user may see', answer: pageSchema('records', quickMessageSchema), auth: ['bearer'], query: quickMessageListQuerySchema },
  'GET /quick-messages/list': { summary: 'The active quick messages the user may use', answer: z.array(quickMessageSchema), auth: ['bearer'], query: quickMessageAllQuerySchema },
  'GET /quick-messages/:id': { summary: 'One quick message', answer: quickMessageSchema, auth: ['bearer'] },
  'POST /quick-messages': { summary: 'Create a quick message', answer: quickMessageSchema, auth: ['bearer'], body: quickMessageCreateSchema, status: 201 },
  'PUT /quick-messages/:id': { summary: 'Change a quick message', answer: quickMessageSchema, auth: ['bearer'], body: quickMessageUpdateSchema, errors: ['ERR_NO_PERMISSION'] },
  'DELETE /quick-messages/:id': { summary: 'Delete a quick message', auth: ['bearer'], answer: messageAnswerSchema },
  'GET /quick-messages/:id/media': { summary: 'The attached file', answer: FILE_ANSWER, auth: ['bearer'] },
  'POST /quick-messages/:id/media-upload': { summary: 'Attach a file', answer: quickMessageSchema, auth: ['bearer'], multipart: { file: 'file' }, errors: ['ERR_NO_PERMISSION'] },
  'DELETE /quick-messages/:id/media-upload': { summary: 'Remove the attached file', answer: quickMessageSchema, auth: ['bearer'], errors: ['ERR_NO_PERMISSION'] },
});
