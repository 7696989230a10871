import { z } from 'zod';
import { PIX_LIMITS, pixKeyKind, pixText } from '../pix.ts';
import { idSchema } from './common.ts';

// Billing (spec/03 §2, §3, §4, §7; DESIGN §14): invoices as every transport sends them, their
// status rule, the checkout payload and its Pix answer, the platform's Pix settings and the payment
// webhook's body. Money travels as reais with 2 decimals (`value`) beside the stored cents.

export const INVOICE_STATUSES = ['paid', 'open', 'expired'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/**
 * spec/03 §4: paid, open, or expired when the due date is before today (UTC day) and it is not paid.
 * The database keeps only paid/open; expired is read at the moment of asking.
 */
export function invoiceStatusOf(stored: string, dueDate: string, now: Date = new Date()): InvoiceStatus {
  if (stored === 'paid') return 'paid';
  return dueDate.slice(0, 10) < now.toISOString().slice(0, 10) ? 'expired' : 'open';
}

export const invoiceSchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  companyName: z.string(),
  detail: z.string(),
  value: z.number().describe('Amount in reais (BRL), 2 decimals'),
  valueCents: z.number().int(),
  dueDate: z.string(),
  status: z.enum(INVOICE_STATUSES),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;
export type InvoicesPage = { list: Invoice[]; hasMore: boolean };

/** GET /invoices/all: search over the detail (and the company name for the super-admin), 20 a page. */
export const invoiceQuerySchema = z.object({
  searchParam: z.string().trim().max(100).default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).default(1),
  /** The super-admin narrows to one company; anyone else always sees only their own. */
  companyId: idSchema.optional(),
  status: z.enum(INVOICE_STATUSES).optional(),
});
export type InvoiceQuery = z.infer<typeof invoiceQuerySchema>;

const optionalText = z.string().trim().max(200).optional();

/**
 * POST /subscription (spec/03 §3 checkout payload). Step 1's fields are required (spec/03 §5); card
 * fields are accepted and ignored: the only way to pay here is the Pix code of the answer.
 */
export const checkoutSchema = z.object({
  invoiceId: idSchema,
  firstName: z.string().trim().min(1, 'Required').max(100),
  lastName: optionalText,
  address1: optionalText,
  address2: z.string().trim().min(1, 'Required').max(200),
  city: z.string().trim().min(1, 'Required').max(100),
  state: optionalText,
  // Letters are allowed (postcodes abroad), but every ZIP or postcode holds a digit: "abc" is none.
  zipcode: z.string().trim().regex(/^(?=.*\d)[0-9A-Za-z -]{3,10}$/, 'Invalid ZIP code'),
  country: z.string().trim().min(1, 'Required').max(60),
  useAddressForPaymentDetails: z.boolean().optional(),
  nameOnCard: optionalText,
  cardNumber: optionalText,
  expiryDate: optionalText,
  cvv: optionalText,
  plan: z.unknown().optional(),
  price: z.unknown().optional(),
  users: z.unknown().optional(),
  connections: z.unknown().optional(),
});
export type CheckoutInput = z.infer<typeof checkoutSchema>;

/** spec/03 §3 Pix result: `valor.original` ("1234.56") and `qrcode.qrcode` (the BR Code). */
export const pixChargeSchema = z.object({
  invoiceId: z.number().int(),
  txid: z.string(),
  valor: z.object({ original: z.string() }),
  qrcode: z.object({ qrcode: z.string(), imagemQrcode: z.string().optional() }),
});
export type PixCharge = z.infer<typeof pixChargeSchema>;

/** The platform's receiving account (super-admin): GET/PUT /billing/settings. */
export const billingSettingsSchema = z.object({
  pixKey: z
    .string()
    .trim()
    .min(1, 'Required')
    .refine((key) => pixKeyKind(key) !== null, 'Not a Pix key: an e-mail, +55 phone, CPF, CNPJ or random key'),
  // Banks read these as plain ASCII (pix.ts pixText): something must be left once accents are dropped.
  merchantName: z.string().trim().min(1, 'Required').max(100).refine((s) => pixText(s, PIX_LIMITS.name) !== '', 'Use Latin letters'),
  merchantCity: z.string().trim().min(1, 'Required').max(100).refine((s) => pixText(s, PIX_LIMITS.city) !== '', 'Use Latin letters'),
});
export type BillingSettings = z.infer<typeof billingSettingsSchema>;

/** The `payment` event a company's clients hear when one of its invoices is paid (spec/03 §4). */
export type PaymentEvent = { action: 'CONCLUIDA'; invoiceId: number; dueDate: string };

/**
 * A payment provider's webhook (the Pix API's shape: `pix[]` with txid and amount). Signed with
 * HMAC-SHA256 of the raw body, header `x-zapdesk-signature: sha256=<hex>`.
 */
export const pixWebhookSchema = z.object({
  pix: z
    .array(z.object({ txid: z.string().min(1).max(35), valor: z.string().regex(/^\d+(\.\d{1,2})?$/), endToEndId: z.string().max(64).optional(), horario: z.string().optional() }))
    .min(1)
    .max(100),
});
export type PixWebhook = z.infer<typeof pixWebhookSchema>;

/** Cents → reais as the wire sends them (2 decimals). */
export const centsToReais = (cents: number) => Math.round(cents) / 100;
