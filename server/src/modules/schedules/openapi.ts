// The OpenAPI documents of the schedules routes: the schemas their handlers parse (http/openapi/README.md).
import { messageAnswerSchema, pageSchema, scheduleCreateSchema, scheduleListQuerySchema, scheduleUpdateSchema, scheduledMessageSchema } from '@zapdesk/sync';
import { area, FILE_ANSWER } from '../../http/openapi/types.ts';

export const schedulesDocs = area('Schedules', "Messages scheduled to a contact for a date and time, optionally with a file, sent by the server when due.", {
  'GET /schedules': { summary: 'A page of scheduled messages', answer: pageSchema('schedules', scheduledMessageSchema, { count: true }), auth: ['bearer'], query: scheduleListQuerySchema, plan: 'schedules' },
  'GET /schedules/:id': { summary: 'One scheduled message', answer: scheduledMessageSchema, auth: ['bearer'], plan: 'schedules' },
  'POST /schedules': { summary: 'Schedule a message', answer: scheduledMessageSchema, auth: ['bearer'], body: scheduleCreateSchema, status: 201, plan: 'schedules', errors: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_TICKET_FOUND'] },
  'PUT /schedules/:id': { summary: 'Change a scheduled message', answer: scheduledMessageSchema, auth: ['bearer'], body: scheduleUpdateSchema, plan: 'schedules', errors: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_TICKET_FOUND'] },
  'DELETE /schedules/:id': { summary: 'Delete a scheduled message', auth: ['bearer'], answer: messageAnswerSchema, plan: 'schedules' },
  'GET /schedules/:id/media': { summary: 'The attached file', answer: FILE_ANSWER, auth: ['bearer'], plan: 'schedules' },
  'POST /schedules/:id/media-upload': { summary: 'Attach a file', answer: scheduledMessageSchema, auth: ['bearer'], multipart: { file: 'file' }, plan: 'schedules' },
  'DELETE /schedules/:id/media-upload': { summary: 'Remove the attached file', answer: scheduledMessageSchema, auth: ['bearer'], plan: 'schedules' },
});
