// The OpenAPI documents of the quick-messages routes: the schemas their handlers parse (http/openapi/README.md).
import { messageAnswerSchema, quickMessageAllQuerySchema, quickMessageCreateSchema, quickMessageListQuerySchema, quickMessageUpdateSchema } from '@zapdesk/sync';
import { area } from '../../http/openapi/types.ts';

export const quickMessagesDocs = area('Quick Messages', '', {
  'GET /quick-messages': { auth: ['bearer'], query: quickMessageListQuerySchema },
  'GET /quick-messages/list': { auth: ['bearer'], query: quickMessageAllQuerySchema },
  'GET /quick-messages/:id': { auth: ['bearer'] },
  'POST /quick-messages': { auth: ['bearer'], body: quickMessageCreateSchema, status: 201 },
  'PUT /quick-messages/:id': { auth: ['bearer'], body: quickMessageUpdateSchema, errors: ['ERR_NO_PERMISSION'] },
  'DELETE /quick-messages/:id': { auth: ['bearer'], answer: messageAnswerSchema },
  'GET /quick-messages/:id/media': { auth: ['bearer'] },
  'POST /quick-messages/:id/media-upload': { auth: ['bearer'], multipart: { file: 'file' } },
  'DELETE /quick-messages/:id/media-upload': { auth: ['bearer'], errors: ['ERR_NO_PERMISSION'] },
});
