// The OpenAPI documents of the ticket-notes routes: the schemas their handlers parse (http/openapi/README.md).
import { messageAnswerSchema, ticketNoteCreateSchema, ticketNoteListQuerySchema } from '@zapdesk/sync';
import { area } from '../../http/openapi/types.ts';

export const ticketNotesDocs = area('Ticket Notes', '', {
  'GET /ticket-notes/list': { auth: ['bearer'], query: ticketNoteListQuerySchema, errors: ['ERR_NO_PERMISSION', 'ERR_NO_TICKET_FOUND'] },
  'POST /ticket-notes': { auth: ['bearer'], body: ticketNoteCreateSchema, status: 201, errors: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_PERMISSION', 'ERR_NO_TICKET_FOUND'] },
  'DELETE /ticket-notes/:id': { auth: ['bearer'], answer: messageAnswerSchema, errors: ['ERR_NO_PERMISSION'] },
});
