// The OpenAPI documents of the announcements routes: the schemas their handlers parse (http/openapi/README.md).
import { announcementCreateSchema, announcementListQuerySchema, announcementUpdateSchema, messageAnswerSchema } from '@zapdesk/sync';
import { area } from '../../http/openapi/types.ts';

export const announcementsDocs = area('Announcements', '', {
  'GET /announcements': { auth: ['bearer'], query: announcementListQuerySchema },
  'GET /announcements/:id': { auth: ['bearer'] },
  'POST /announcements': { auth: ['bearer'], body: announcementCreateSchema, status: 201, guarded: true },
  'PUT /announcements/:id': { auth: ['bearer'], body: announcementUpdateSchema, guarded: true },
  'DELETE /announcements/:id': { auth: ['bearer'], answer: messageAnswerSchema, guarded: true },
  'GET /announcements/:id/media': { auth: ['bearer'] },
  'POST /announcements/:id/media-upload': { auth: ['bearer'], multipart: { file: 'file' }, guarded: true },
  'DELETE /announcements/:id/media-upload': { auth: ['bearer'], guarded: true },
});
