// The OpenAPI documents of the billing routes: the schemas their handlers parse (http/openapi/README.md).
import { billingSettingsSchema, checkoutSchema, invoiceQuerySchema } from '@zapdesk/sync';
import { markPaidSchema } from './routes.ts';
import { area } from '../../http/openapi/types.ts';

export const billingDocs = area('Billing', '', {
  'GET /invoices/all': { auth: ['bearer'], query: invoiceQuerySchema, guarded: true },
  'GET /invoices/:id': { auth: ['bearer'], params: { id: 'ERR_NO_INVOICE_FOUND' }, guarded: true },
  'PUT /invoices/:id': { auth: ['bearer'], params: { id: 'ERR_NO_INVOICE_FOUND' }, body: markPaidSchema, guarded: true },
  'POST /subscription': { auth: ['bearer'], body: checkoutSchema, guarded: true, errors: ['ERR_INVOICE_ALREADY_PAID', 'ERR_NO_INVOICE_FOUND', 'ERR_PIX_NOT_CONFIGURED'] },
  'GET /billing/settings': { auth: ['bearer'], guarded: true },
  'PUT /billing/settings': { auth: ['bearer'], body: billingSettingsSchema, guarded: true },
  'POST /payments/webhook': { auth: [], errors: ['ERR_INVALID_JSON', 'ERR_INVALID_SIGNATURE', 'ERR_VALIDATION'] },
  'POST /simulator/payments/:invoiceId/confirm': { auth: ['bearer'], params: { invoiceId: 'ERR_NO_INVOICE_FOUND' }, guarded: true, errors: ['ERR_ROUTE_NOT_FOUND'] },
});
