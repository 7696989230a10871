// The OpenAPI documents of the contact-lists routes: the schemas their handlers parse (http/openapi/README.md).
import { contactListCreateSchema, contactListItemCreateSchema, contactListItemQuerySchema, contactListItemSchema, contactListItemUpdateSchema, contactListOptionsQuerySchema, contactListPageQuerySchema, contactListSchema, contactListUpdateSchema, messageAnswerSchema, pageSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

export const contactListsDocs = area('Contact Lists', "Lists of contacts that campaigns send to; each number is checked on WhatsApp after it is added.", {
  'GET /contact-lists': { summary: 'A page of contact lists', answer: pageSchema('records', contactListSchema), auth: ['bearer'], query: contactListPageQuerySchema, guarded: true },
  'GET /contact-lists/list': { summary: 'Every contact list, for pickers', answer: z.array(contactListSchema), auth: ['bearer'], query: contactListOptionsQuerySchema, guarded: true },
  'GET /contact-lists/:id': { summary: 'One contact list', answer: contactListSchema, auth: ['bearer'], guarded: true },
  'POST /contact-lists': { summary: 'Create a contact list', answer: contactListSchema, auth: ['bearer'], body: contactListCreateSchema, status: 201, guarded: true },
  'PUT /contact-lists/:id': { summary: 'Rename a contact list', answer: contactListSchema, auth: ['bearer'], body: contactListUpdateSchema, guarded: true },
  'DELETE /contact-lists/:id': { summary: 'Delete a contact list and its items (not while a programmed or running campaign sends to it)', auth: ['bearer'], answer: messageAnswerSchema, guarded: true, errors: ['ERR_CONTACT_LIST_IN_USE'] },
  'POST /contact-lists/:id/upload': { summary: 'Import a spreadsheet into a list, answering its progress as NDJSON lines', multipart: { file: 'file', description: 'A spreadsheet (.xlsx, .xls or .csv; told apart by its bytes) whose first row names the columns (name, number, email).' }, answer: { contentType: 'application/x-ndjson', description: 'Lines: start, then issue or progress, then done (or failed)' }, auth: ['bearer'], guarded: true, errors: ['ERR_UNSUPPORTED_MEDIA_TYPE'] },
  'GET /contact-list-items': { summary: 'A page of the items of a list', answer: pageSchema('contacts', contactListItemSchema), auth: ['bearer'], query: contactListItemQuerySchema, guarded: true, errors: ['ERR_NOT_FOUND'] },
  'GET /contact-list-items/:id': { summary: 'One item', answer: contactListItemSchema, auth: ['bearer'], guarded: true },
  'POST /contact-list-items': { summary: 'Add a contact to a list', answer: contactListItemSchema, auth: ['bearer'], body: contactListItemCreateSchema, status: 201, guarded: true, errors: ['ERR_DUPLICATED_CONTACT', 'ERR_NOT_FOUND'] },
  'PUT /contact-list-items/:id': { summary: 'Change an item', answer: contactListItemSchema, auth: ['bearer'], body: contactListItemUpdateSchema, guarded: true, errors: ['ERR_DUPLICATED_CONTACT'] },
  'DELETE /contact-list-items/:id': { summary: 'Remove an item', auth: ['bearer'], answer: messageAnswerSchema, guarded: true },
});
