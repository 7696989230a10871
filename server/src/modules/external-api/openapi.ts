// The OpenAPI document of the external messages API (a connection's token, not a user's session).
import { externalMessageSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

/** What a send answers: the ticket and contact it went to and the queued messages (one per file, or the text). */
export const externalSendAnswerSchema = z.object({
  message: z.literal('Message sent'),
  ticketId: z.number().int(),
  contactId: z.number().int(),
  messageIds: z.array(z.number().int()),
});

export const externalApiDocs = area('External API', "Send messages from other systems with a connection's token. The company's plan must include the external API to use it from the web app's page.", {
  'POST /api/messages/send': {
    summary: 'Send a text or files to a number through the connection of the token',
    description:
      'JSON `{ number, body }` sends a text. multipart/form-data with the file(s) in `medias` sends them, `body` being the caption. The number must be on WhatsApp; the message joins the contact\'s open ticket on that connection or opens one.',
    auth: ['connectionToken'],
    plan: 'externalApi',
    body: externalMessageSchema,
    multipart: { file: 'medias', many: true, fields: externalMessageSchema },
    answer: externalSendAnswerSchema,
    errors: ['ERR_WAPP_NOT_INITIALIZED', 'ERR_WAPP_CHECK_CONTACT', 'ERR_WAPP_INVALID_CONTACT', 'ERR_CREATING_MESSAGE', 'ERR_CREATING_TICKET', 'ERR_CREATING_CONTACT'],
  },
});
