// The OpenAPI documents of the files routes: the schemas their handlers parse (http/openapi/README.md).
import { fileListCreateSchema, fileListQuerySchema, fileListSchema, fileListUpdateSchema, messageAnswerSchema, pageSchema } from '@zapdesk/sync';
import { area, FILE_ANSWER } from '../../http/openapi/types.ts';

export const filesDocs = area('Files', "File lists: named sets of files (options) that flows and queues can send.", {
  'GET /files': { summary: 'A page of file lists', answer: pageSchema('files', fileListSchema), auth: ['bearer'], query: fileListQuerySchema, guarded: true },
  'POST /files/uploadList/:id': { summary: 'Upload the files of options (field files, with the option id of each in id)', answer: fileListSchema, auth: ['bearer'], guarded: true, errors: ['ERR_UNSUPPORTED_MEDIA_TYPE'] },
  'GET /files/:id': { summary: 'One file list with its options', answer: fileListSchema, auth: ['bearer'], guarded: true },
  'GET /files/:id/options/:optionId/media': { summary: "An option's file", answer: FILE_ANSWER, auth: ['bearer'], guarded: true },
  'POST /files': { summary: 'Create a file list', answer: fileListSchema, auth: ['bearer'], body: fileListCreateSchema, status: 201, guarded: true },
  'PUT /files/:id': { summary: 'Change a file list and its options', answer: fileListSchema, auth: ['bearer'], body: fileListUpdateSchema, guarded: true },
  'DELETE /files/:id': { summary: 'Delete a file list', auth: ['bearer'], answer: messageAnswerSchema, guarded: true },
});
