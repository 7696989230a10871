// The OpenAPI documents of the billing routes: the schemas their handlers parse (http/openapi/README.md).
import { pixWebhookSchema, billingSettingsSchema, checkoutSchema, invoiceQuerySchema, invoiceSchema, pageSchema, pixChargeSchema } from '@zapdesk/sync';
import { markPaidSchema } from './routes.ts';
import { z } from 'zod';
import type { PaymentOutcome } from './service.ts';
import { area } from '../../http/openapi/types.ts';

const paymentOutcomeSchema: z.ZodType<PaymentOutcome> = z.object({ invoice: invoiceSchema, dueDate: z.string().nullable(), changed: z.boolean() });
const billingSettingsAnswerSchema = z.object({ configured: z.boolean(), pixKey: z.string(), merchantName: z.string(), merchantCity: z.string() });

export const billingDocs = area('Billing', "Invoices and their payment by Pix: the checkout makes a Pix charge, the provider's webhook (or the simulator) confirms it and the due date moves on.", {
  'GET /invoices/all': { summary: "A page of the company's invoices", answer: pageSchema('list', invoiceSchema), auth: ['bearer'], query: invoiceQuerySchema, guarded: true },
  'GET /invoices/:id': { summary: 'One invoice', answer: invoiceSchema, auth: ['bearer'], params: { id: 'ERR_NO_INVOICE_FOUND' }, guarded: true },
  'PUT /invoices/:id': { summary: 'Mark an invoice paid (super-admin)', answer: paymentOutcomeSchema, auth: ['bearer'], params: { id: 'ERR_NO_INVOICE_FOUND' }, body: markPaidSchema, guarded: true },
  'GET /subscription/checkout': { summary: 'Whether a checkout can make a Pix charge (the platform has a Pix receiver)', answer: z.object({ pixConfigured: z.boolean() }), auth: ['bearer'], guarded: true },
  'POST /subscription': { summary: 'Check out an invoice: a Pix charge (QR code and copy-paste code)', answer: pixChargeSchema, auth: ['bearer'], body: checkoutSchema, guarded: true, errors: ['ERR_INVOICE_ALREADY_PAID', 'ERR_NO_INVOICE_FOUND', 'ERR_PIX_NOT_CONFIGURED'] },
  'GET /billing/settings': { summary: "The platform's Pix receiver (super-admin)", answer: billingSettingsAnswerSchema, auth: ['bearer'], guarded: true },
  'PUT /billing/settings': { summary: "Set the platform's Pix receiver (super-admin)", answer: billingSettingsAnswerSchema, auth: ['bearer'], body: billingSettingsSchema, guarded: true },
  'POST /payments/webhook': { summary: "The payment provider's notice of paid charges (signed)", auth: ['webhookSignature'], answer: z.object({ confirmed: z.array(z.number().int()), alreadyPaid: z.array(z.number().int()), ignored: z.array(z.object({ txid: z.string(), reason: z.enum(['unknown txid', 'amount differs']) })) }), body: pixWebhookSchema, errors: ['ERR_INVALID_JSON', 'ERR_INVALID_SIGNATURE', 'ERR_VALIDATION'] },
  'POST /simulator/payments/:invoiceId/confirm': { summary: 'Pay an invoice on the simulated provider (SIMULATOR=1 only)', answer: paymentOutcomeSchema, auth: ['bearer'], params: { invoiceId: 'ERR_NO_INVOICE_FOUND' }, guarded: true, errors: ['ERR_ROUTE_NOT_FOUND'] },
});
