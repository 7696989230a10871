// The OpenAPI documents of the tickets routes: the schemas their handlers parse (http/openapi/README.md).
import { messageAnswerSchema, pageSchema, ticketCreateSchema, ticketListQuerySchema, ticketSchema, ticketUpdateSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

export const ticketsDocs = area('Tickets', 'Conversations with contacts: pending (waiting), open (someone attends) and closed. Attendants see the tickets of their queues.', {
  'GET /tickets': { summary: 'A page of the tickets the user may see, filtered', auth: ['bearer'], query: ticketListQuerySchema, answer: pageSchema('tickets', ticketSchema) },
  'GET /tickets/u/:uuid': { summary: 'A ticket by its uuid (the links the web app shows)', auth: ['bearer'], params: { uuid: z.string() }, answer: ticketSchema, errors: ['ERR_NO_TICKET_FOUND'] },
  'GET /tickets/:id': { summary: 'One ticket', auth: ['bearer'], params: { id: 'ERR_NO_TICKET_FOUND' }, answer: ticketSchema, errors: ['ERR_NO_PERMISSION'] },
  'POST /tickets': {
    summary: 'Open a ticket for a contact',
    auth: ['bearer'],
    body: ticketCreateSchema,
    status: 201,
    answer: ticketSchema,
    errors: ['ERR_OTHER_OPEN_TICKET', 'ERR_NO_CONTACT_FOUND', 'ERR_NO_DEF_WAPP_FOUND', 'ERR_NO_WAPP_FOUND', 'ERR_NO_PERMISSION', 'ERR_NOT_FOUND'],
  },
  'PUT /tickets/:id': {
    summary: 'Accept, transfer, close or reopen a ticket',
    auth: ['bearer'],
    params: { id: 'ERR_NO_TICKET_FOUND' },
    body: ticketUpdateSchema,
    answer: ticketSchema,
    errors: ['ERR_OTHER_OPEN_TICKET', 'ERR_NO_PERMISSION', 'ERR_NOT_FOUND', 'ERR_NO_USER_FOUND', 'ERR_NO_WAPP_FOUND'],
  },
  'DELETE /tickets/:id': { summary: 'Delete a ticket and its messages', auth: ['bearer'], params: { id: 'ERR_NO_TICKET_FOUND' }, answer: messageAnswerSchema, guarded: true },
});
