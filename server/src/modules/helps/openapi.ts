// The OpenAPI documents of the helps routes: the schemas their handlers parse (http/openapi/README.md).
import { helpCreateSchema, helpUpdateSchema, messageAnswerSchema } from '@zapdesk/sync';
import { area } from '../../http/openapi/types.ts';

export const helpsDocs = area('Helps', '', {
  'GET /helps': { auth: ['bearer'] },
  'GET /helps/list': { auth: ['bearer'] },
  'POST /helps': { auth: ['bearer'], body: helpCreateSchema, status: 201, guarded: true },
  'PUT /helps/:id': { auth: ['bearer'], body: helpUpdateSchema, guarded: true, errors: ['ERR_NO_HELP_FOUND'] },
  'DELETE /helps/:id': { auth: ['bearer'], answer: messageAnswerSchema, guarded: true, errors: ['ERR_NO_HELP_FOUND'] },
});
