// The OpenAPI documents of the whatsapp-sessions routes: the schemas their handlers parse (http/openapi/README.md).
import { companyScopeQuerySchema, connectionSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area, type RouteDoc } from '../../http/openapi/types.ts';
import { pairingCodeSchema } from './routes.ts';

const withPairingCode = connectionSchema.extend({ pairingCode: z.string().nullable().describe('The code to type on the phone instead of scanning the QR') });
const action = (summary: string): RouteDoc => ({
  summary,
  auth: ['bearer'],
  params: { id: 'ERR_NO_WAPP_FOUND' },
  query: companyScopeQuerySchema,
  guarded: true,
  answer: connectionSchema,
  errors: ['ERR_NO_COMPANY_FOUND', 'ERR_WAPP_NOT_INITIALIZED'],
});

export const whatsappSessionsDocs = area('Connection sessions', "A connection's live session: start it (QR code or pairing code), renew its QR code, log it out.", {
  'POST /whatsappsession/:id/pairing-code': { ...action('Ask for a pairing code for a phone number'), body: pairingCodeSchema, answer: withPairingCode, errors: ['ERR_NO_COMPANY_FOUND', 'ERR_WAPP_NOT_INITIALIZED', 'ERR_NO_WAPP_FOUND'] },
  'GET /whatsappsession/:id': { ...action("The connection and its session's pairing code"), answer: withPairingCode, errors: ['ERR_NO_COMPANY_FOUND', 'ERR_NO_WAPP_FOUND'] },
  'POST /whatsappsession/:id': action('Start the session'),
  'PUT /whatsappsession/:id': action('Renew the QR code'),
  'DELETE /whatsappsession/:id': action('Log the session out'),
});
