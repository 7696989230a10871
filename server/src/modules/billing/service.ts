// The business rules of billing (spec/03 §2-§4, DESIGN §14; README.md). Writes take the route's or
// the job's transaction (`Tx`, DESIGN §12): the company's poke and the `payment` event are effects
// that run after the commit. Every payment, whatever confirmed it (simulator, webhook, the
// super-admin by hand), goes through `confirmInvoicePayment`: paid once, due date extended once.
import { randomBytes } from 'node:crypto';
import { change, emit } from '../../events/emit.ts';
import { AppError, buildPixCode, centsToPixAmount, recurrenceSchema, type BillingSettings, type CheckoutInput, type Invoice, type PaymentEvent, type PixCharge } from '@zapdesk/sync';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import { nowIso } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';
import { renewCompany } from '../companies/service.ts';
import { toInvoiceDto, type InvoiceRow } from './dto.ts';
import { findInvoiceRow, type InvoiceScope } from './queries.ts';
import { findBillingSettings } from './settings.ts';

export const invoiceNotFound = () => new AppError('ERR_NO_INVOICE_FOUND');

/** Whose invoices the actor may see: the super-admin every company's, an admin their own. */
export const scopeOf = (actor: Actor): InvoiceScope => (actor.super ? 'all' : actor.companyId);

export async function getInvoice(db: Database, actor: Actor, id: number): Promise<Invoice> {
  const row = await findInvoiceRow(db, scopeOf(actor), id);
  if (!row) throw invoiceNotFound();
  return toInvoiceDto(row);
}

/** A txid of the manual's alphabet (letters and digits, 25 at most), unique per invoice. */
const newTxid = (invoiceId: number) => `ZD${String(invoiceId).padStart(8, '0')}${randomBytes(6).toString('hex').toUpperCase()}`;

/**
 * POST /subscription: the Pix charge of one of the company's open invoices. The txid is given once
 * and kept, so every checkout of the invoice shows a code the same payment settles; the code is
 * rebuilt from the current platform settings (a corrected key applies at once) and stored.
 */
export async function createPixCharge(tx: Tx, actor: Actor, input: CheckoutInput): Promise<PixCharge> {
  const row = await findInvoiceRow(tx.db, scopeOf(actor), input.invoiceId);
  if (!row) throw invoiceNotFound();
  if (row.status === 'paid') throw new AppError('ERR_INVOICE_ALREADY_PAID');
  const settings = await findBillingSettings(tx.db);
  if (!settings) throw new AppError('ERR_PIX_NOT_CONFIGURED');
  const txid = row.txid ?? newTxid(row.id);
  const qrcode = pixCodeOf(settings, row.valueCents, txid);
  await tenant(tx.db, row.companyId)
    .updateTable('invoices')
    .set({ txid, pixCode: qrcode, ...bumpVersion() })
    .where('invoices.id', '=', row.id)
    .execute();
  return { invoiceId: row.id, txid, valor: { original: centsToPixAmount(row.valueCents) }, qrcode: { qrcode } };
}

/**
 * The BR Code, or ERR_PIX_NOT_CONFIGURED when the stored account cannot make one (settings written
 * before PUT /billing/settings checked them: a name with no Latin letter left, a key too long).
 */
function pixCodeOf(settings: BillingSettings, amountCents: number, txid: string): string {
  try {
    return buildPixCode({ key: settings.pixKey, name: settings.merchantName, city: settings.merchantCity, amountCents, txid });
  } catch (err) {
    if (err instanceof RangeError) throw new AppError('ERR_PIX_NOT_CONFIGURED');
    throw err;
  }
}

export type PaymentOutcome = { invoice: Invoice; dueDate: string | null; changed: boolean };

/**
 * Marks the invoice paid and extends its company's due date by the recurrence, from the later of
 * today and the current due date (companies/service.ts `renewCompany`). The update is conditional
 * (`status <> 'paid'`): a second confirmation (a repeated webhook, a concurrent one) changes nothing
 * and reports `changed: false`. The company's clients hear `payment` CONCLUIDA after the commit.
 */
export async function confirmInvoicePayment(tx: Tx, row: InvoiceRow, reference: string, now = new Date()): Promise<PaymentOutcome> {
  const t = tenant(tx.db, row.companyId);
  const result = await t
    .updateTable('invoices')
    .set({ status: 'paid', paidAt: now.toISOString(), paymentRef: reference.slice(0, 200), ...bumpVersion() })
    .where('invoices.id', '=', row.id)
    .where('invoices.status', '<>', 'paid')
    .executeTakeFirst();
  const changed = Number(result.numUpdatedRows) === 1;
  let dueDate: string | null;
  if (changed) {
    // By the period the invoice charged for, whatever the company's recurrence is now.
    const period = row.recurrence ? recurrenceSchema.catch('MENSAL').parse(row.recurrence) : undefined;
    const company = await renewCompany(tx, row.companyId, now, period);
    dueDate = company.dueDate;
    const event: PaymentEvent = { action: 'CONCLUIDA', invoiceId: row.id, dueDate: dueDate ?? '' };
    tx.effects.afterCommit((app) => app.realtime.companyEvent(row.companyId, 'payment', event));
    // Webhooks get the invoice as it is now (paid), with the new due date.
    const paid = await findInvoiceRow(tx.db, row.companyId, row.id);
    await emit(tx, change(row.companyId, 'payment', 'update', row.id, { hooks: ['payment.confirmed'], data: { ...event, invoice: paid ? toInvoiceDto(paid, now) : null } }));
  } else {
    const company = await tx.db.selectFrom('companies').select('dueDate').where('id', '=', row.companyId).executeTakeFirst();
    dueDate = company?.dueDate ?? null;
  }
  tx.effects.poke(row.companyId);
  const fresh = await findInvoiceRow(tx.db, row.companyId, row.id);
  return { invoice: toInvoiceDto(fresh ?? row, now), dueDate, changed };
}

/** PUT /invoices/{id} by the super-admin: a payment received outside the platform. */
export async function markInvoicePaid(tx: Tx, actor: Actor, id: number): Promise<PaymentOutcome> {
  if (!actor.super) throw new AppError('ERR_NO_PERMISSION');
  const row = await findInvoiceRow(tx.db, 'all', id);
  if (!row) throw invoiceNotFound();
  return confirmInvoicePayment(tx, row, `manual:user-${actor.userId}:${nowIso()}`);
}
