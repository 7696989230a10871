// The OpenAPI documents of the messages routes: the schemas their handlers parse (http/openapi/README.md).
import { messageCreateSchema, messageListQuerySchema, messageMultipartSchema, messageSchema, pageSchema, ticketSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

const SEND_ERRORS = ['ERR_WAPP_NOT_INITIALIZED', 'ERR_NO_PERMISSION', 'ERR_NO_DEF_WAPP_FOUND', 'ERR_NO_WAPP_FOUND', 'ERR_NOT_FOUND'] as const;

export const messagesDocs = area('Messages', "A ticket's messages. Sends are queued and leave after the write commits; their ack and sendStatus move as the network reports.", {
  'GET /messages/:ticketId': {
    summary: "A page of a ticket's messages, newest first (reading them marks the ticket read for its attendant)",
    auth: ['bearer'],
    params: { ticketId: 'ERR_NO_TICKET_FOUND' },
    query: messageListQuerySchema,
    answer: pageSchema('messages', messageSchema).extend({ ticket: ticketSchema }),
  },
  'POST /messages/:ticketId': {
    summary: 'Send a text (JSON) or files (multipart, field medias) in a ticket',
    description: 'JSON answers the message; multipart answers `{ messages }`, one per file.',
    auth: ['bearer'],
    params: { ticketId: 'ERR_NO_TICKET_FOUND' },
    body: messageCreateSchema,
    multipart: { file: 'medias', many: true, fields: messageMultipartSchema },
    status: 201,
    answer: z.union([messageSchema, z.object({ messages: z.array(messageSchema) })]),
    errors: [...SEND_ERRORS, 'ERR_CREATING_MESSAGE'],
  },
  'POST /messages/:id/resend': { summary: 'Send a failed message again', auth: ['bearer'], params: { id: 'ERR_NOT_FOUND' }, answer: messageSchema, errors: [...SEND_ERRORS, 'ERR_SEND_UNCONFIRMED', 'ERR_VALIDATION', 'ERR_NO_PERMISSION'] },
  'DELETE /messages/:id': {
    summary: 'Delete a sent message for everyone',
    auth: ['bearer'],
    params: { id: 'ERR_NOT_FOUND' },
    answer: messageSchema,
    errors: ['ERR_FETCH_WAPP_MSG', 'ERR_WAPP_NOT_INITIALIZED', 'ERR_NO_CONTACT_FOUND', 'ERR_DELETE_WAPP_MSG', 'ERR_NO_PERMISSION', 'ERR_NO_TICKET_FOUND'],
  },
});
