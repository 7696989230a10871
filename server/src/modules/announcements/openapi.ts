// The OpenAPI documents of the announcements routes: the schemas their handlers parse (http/openapi/README.md).
import { announcementCreateSchema, announcementListQuerySchema, announcementSchema, announcementUpdateSchema, messageAnswerSchema, pageSchema } from '@zapdesk/sync';
import { area, FILE_ANSWER } from '../../http/openapi/types.ts';

export const announcementsDocs = area('Announcements', "Notices the platform's super-admin publishes to every company's users.", {
  'GET /announcements': { summary: 'A page of announcements', answer: pageSchema('records', announcementSchema, { count: true }), auth: ['bearer'], query: announcementListQuerySchema },
  'GET /announcements/:id': { summary: 'One announcement', answer: announcementSchema, auth: ['bearer'] },
  'POST /announcements': { summary: 'Publish an announcement (super-admin)', answer: announcementSchema, auth: ['bearer'], body: announcementCreateSchema, status: 201, guarded: true },
  'PUT /announcements/:id': { summary: 'Change an announcement (super-admin)', answer: announcementSchema, auth: ['bearer'], body: announcementUpdateSchema, guarded: true },
  'DELETE /announcements/:id': { summary: 'Delete an announcement (super-admin)', auth: ['bearer'], answer: messageAnswerSchema, guarded: true },
  'GET /announcements/:id/media': { summary: 'The attached image', answer: FILE_ANSWER, auth: ['bearer'] },
  'POST /announcements/:id/media-upload': { summary: 'Attach an image (super-admin)', answer: announcementSchema, auth: ['bearer'], multipart: { file: 'file' }, guarded: true },
  'DELETE /announcements/:id/media-upload': { summary: 'Remove the image (super-admin)', answer: announcementSchema, auth: ['bearer'], guarded: true },
});
