// The OpenAPI documents of the schedules routes: the schemas their handlers parse (http/openapi/README.md).
import { messageAnswerSchema, scheduleCreateSchema, scheduleListQuerySchema, scheduleUpdateSchema } from '@zapdesk/sync';
import { area } from '../../http/openapi/types.ts';

export const schedulesDocs = area('Schedules', '', {
  'GET /schedules': { auth: ['bearer'], query: scheduleListQuerySchema, plan: 'schedules' },
  'GET /schedules/:id': { auth: ['bearer'], plan: 'schedules' },
  'POST /schedules': { auth: ['bearer'], body: scheduleCreateSchema, status: 201, plan: 'schedules', errors: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_TICKET_FOUND'] },
  'PUT /schedules/:id': { auth: ['bearer'], body: scheduleUpdateSchema, plan: 'schedules', errors: ['ERR_NO_CONTACT_FOUND'] },
  'DELETE /schedules/:id': { auth: ['bearer'], answer: messageAnswerSchema, plan: 'schedules' },
  'GET /schedules/:id/media': { auth: ['bearer'], plan: 'schedules' },
  'POST /schedules/:id/media-upload': { auth: ['bearer'], multipart: { file: 'file' }, plan: 'schedules' },
  'DELETE /schedules/:id/media-upload': { auth: ['bearer'], plan: 'schedules' },
});
