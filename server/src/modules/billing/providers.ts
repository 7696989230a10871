// The payment provider seam (DESIGN §14). A provider tells the platform that an invoice's Pix
// charge was paid; whatever it is, its notice becomes a `Confirmation`, and confirmations are
// applied by one function (service.ts `confirmInvoicePayment`). Two providers are built in:
// - `simulator`: POST /simulator/payments/{invoiceId}/confirm (and `zapdesk invoices pay-sim`), the
//   fake bank of demos and tests, like the WhatsApp simulator;
// - `webhook`: a real provider (a PSP's Pix API) posting `{pix: [{txid, valor, endToEndId}]}` signed
//   with HMAC-SHA256 of the raw body under PAYMENT_WEBHOOK_SECRET, header
//   `x-zapdesk-signature: sha256=<hex>`. No secret configured: every webhook is refused.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError, type PixWebhook } from '@zapdesk/sync';
import type { Database } from '../../db/database.ts';
import type { InvoiceRow } from './dto.ts';
import { findInvoiceByTxid } from './queries.ts';

export const SIGNATURE_HEADER = 'x-zapdesk-signature';

export type Confirmation = { invoice: InvoiceRow; reference: string };
export type Ignored = { txid: string; reason: 'unknown txid' | 'amount differs' };

/** The header a sender computes: `sha256=` + hex HMAC-SHA256 of the exact body bytes. */
export function signWebhookBody(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;
}

/** Throws ERR_INVALID_SIGNATURE unless the header is the body's HMAC under the secret (compared in constant time). */
export function verifyWebhookSignature(secret: string | undefined, rawBody: string, header: string | undefined): void {
  if (!secret || !header) throw new AppError('ERR_INVALID_SIGNATURE');
  const expected = Buffer.from(signWebhookBody(secret, rawBody));
  const given = Buffer.from(header.trim());
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError('ERR_INVALID_SIGNATURE');
}

/**
 * The webhook's entries as confirmations: an entry naming no invoice of ours, or paying another
 * amount than the invoice's, is ignored (reported back, never applied).
 */
export async function readWebhook(db: Database, body: PixWebhook): Promise<{ confirmations: Confirmation[]; ignored: Ignored[] }> {
  const confirmations: Confirmation[] = [];
  const ignored: Ignored[] = [];
  for (const pix of body.pix) {
    const invoice = await findInvoiceByTxid(db, pix.txid);
    if (!invoice) ignored.push({ txid: pix.txid, reason: 'unknown txid' });
    else if (Math.round(Number(pix.valor) * 100) !== invoice.valueCents) ignored.push({ txid: pix.txid, reason: 'amount differs' });
    else confirmations.push({ invoice, reference: `webhook:${pix.endToEndId ?? pix.txid}` });
  }
  return { confirmations, ignored };
}

/** The simulator's bank pays the invoice in full at once. */
export function simulatorConfirmation(invoice: InvoiceRow): Confirmation {
  return { invoice, reference: `simulator:${invoice.txid ?? `invoice-${invoice.id}`}` };
}
