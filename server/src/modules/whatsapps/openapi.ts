// The OpenAPI documents of the whatsapps routes: the schemas their handlers parse (http/openapi/README.md).
import { companyScopeQuerySchema, connectionSchema, messageAnswerSchema, whatsappCreateSchema, whatsappListQuerySchema, whatsappUpdateSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

const WRITE_ERRORS = ['ERR_NO_COMPANY_FOUND', 'ERR_NO_OTHER_WHATSAPP', 'ERR_NO_PERMISSION', 'ERR_NOT_FOUND', 'ERR_WAPP_GREETING_REQUIRED'] as const;

export const whatsappsDocs = area('Connections', 'WhatsApp connections (numbers) of the company, their queues and messages. A super-admin may name another company with companyId.', {
  'GET /whatsapp': { summary: "The company's connections", auth: ['bearer'], query: whatsappListQuerySchema, answer: z.array(connectionSchema), errors: ['ERR_NO_COMPANY_FOUND'] },
  'GET /whatsapp/:id': { summary: 'One connection', auth: ['bearer'], params: { id: 'ERR_NO_WAPP_FOUND' }, query: whatsappListQuerySchema, answer: connectionSchema, errors: ['ERR_NO_COMPANY_FOUND'] },
  'POST /whatsapp': { summary: 'Create a connection', auth: ['bearer'], body: whatsappCreateSchema, status: 201, guarded: true, answer: connectionSchema, errors: [...WRITE_ERRORS, 'ERR_NO_COMPANY_FOUND'] },
  'PUT /whatsapp/:id': { summary: 'Change a connection', auth: ['bearer'], params: { id: 'ERR_NO_WAPP_FOUND' }, query: companyScopeQuerySchema, body: whatsappUpdateSchema, guarded: true, answer: connectionSchema, errors: [...WRITE_ERRORS, 'ERR_NO_OTHER_WHATSAPP'] },
  'DELETE /whatsapp/:id': { summary: 'Delete a connection', auth: ['bearer'], params: { id: 'ERR_NO_WAPP_FOUND' }, query: companyScopeQuerySchema, answer: messageAnswerSchema, guarded: true, errors: ['ERR_NO_COMPANY_FOUND'] },
});
