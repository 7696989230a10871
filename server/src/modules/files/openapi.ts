// The OpenAPI documents of the files routes: the schemas their handlers parse (http/openapi/README.md).
import { fileListCreateSchema, fileListQuerySchema, fileListUpdateSchema, messageAnswerSchema } from '@zapdesk/sync';
import { area } from '../../http/openapi/types.ts';

export const filesDocs = area('Files', '', {
  'GET /files': { auth: ['bearer'], query: fileListQuerySchema, guarded: true },
  'POST /files/uploadList/:id': { auth: ['bearer'], guarded: true, errors: ['ERR_UNSUPPORTED_MEDIA_TYPE'] },
  'GET /files/:id': { auth: ['bearer'], guarded: true },
  'GET /files/:id/options/:optionId/media': { auth: ['bearer'], guarded: true },
  'POST /files': { auth: ['bearer'], body: fileListCreateSchema, status: 201, guarded: true },
  'PUT /files/:id': { auth: ['bearer'], body: fileListUpdateSchema, guarded: true },
  'DELETE /files/:id': { auth: ['bearer'], answer: messageAnswerSchema, guarded: true },
});
