// The OpenAPI documents of the ticket-notes routes: the schemas their handlers parse (http/openapi/README.md).
import { messageAnswerSchema, ticketNoteCreateSchema, ticketNoteListQuerySchema, ticketNoteSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

export const ticketNotesDocs = area('Ticket Notes', "Private notes attendants leave on a ticket's contact; customers never see them.", {
  'GET /ticket-notes/list': { summary: 'The notes of a ticket', answer: z.array(ticketNoteSchema), auth: ['bearer'], query: ticketNoteListQuerySchema, errors: ['ERR_NO_PERMISSION', 'ERR_NO_TICKET_FOUND'] },
  'POST /ticket-notes': { summary: 'Add a note', answer: ticketNoteSchema, auth: ['bearer'], body: ticketNoteCreateSchema, status: 201, errors: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_PERMISSION', 'ERR_NO_TICKET_FOUND'] },
  'DELETE /ticket-notes/:id': { summary: 'Delete a note', auth: ['bearer'], answer: messageAnswerSchema, errors: ['ERR_NO_PERMISSION'] },
});
