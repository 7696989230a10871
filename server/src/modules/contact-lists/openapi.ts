// The OpenAPI documents of the contact-lists routes: the schemas their handlers parse (http/openapi/README.md).
import { contactListCreateSchema, contactListItemCreateSchema, contactListItemQuerySchema, contactListItemUpdateSchema, contactListOptionsQuerySchema, contactListPageQuerySchema, contactListUpdateSchema, messageAnswerSchema } from '@zapdesk/sync';
import { area } from '../../http/openapi/types.ts';

export const contactListsDocs = area('Contact Lists', '', {
  'GET /contact-lists': { auth: ['bearer'], query: contactListPageQuerySchema, guarded: true },
  'GET /contact-lists/list': { auth: ['bearer'], query: contactListOptionsQuerySchema, guarded: true },
  'GET /contact-lists/:id': { auth: ['bearer'], guarded: true },
  'POST /contact-lists': { auth: ['bearer'], body: contactListCreateSchema, status: 201, guarded: true },
  'PUT /contact-lists/:id': { auth: ['bearer'], body: contactListUpdateSchema, guarded: true },
  'DELETE /contact-lists/:id': { auth: ['bearer'], answer: messageAnswerSchema, guarded: true },
  'POST /contact-lists/:id/upload': { auth: ['bearer'], guarded: true, errors: ['ERR_UNSUPPORTED_MEDIA_TYPE'] },
  'GET /contact-list-items': { auth: ['bearer'], query: contactListItemQuerySchema, guarded: true, errors: ['ERR_NOT_FOUND'] },
  'GET /contact-list-items/:id': { auth: ['bearer'], guarded: true },
  'POST /contact-list-items': { auth: ['bearer'], body: contactListItemCreateSchema, status: 201, guarded: true, errors: ['ERR_DUPLICATED_CONTACT', 'ERR_NOT_FOUND'] },
  'PUT /contact-list-items/:id': { auth: ['bearer'], body: contactListItemUpdateSchema, guarded: true, errors: ['ERR_DUPLICATED_CONTACT'] },
  'DELETE /contact-list-items/:id': { auth: ['bearer'], answer: messageAnswerSchema, guarded: true },
});
