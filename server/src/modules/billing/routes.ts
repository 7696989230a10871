// Billing over REST (spec/03 §7; README.md): invoices, the checkout's Pix charge, the platform's Pix
// settings, the payment webhook and the simulator's payment control. Each write is one transaction
// opened here (db/write.ts); fixed paths come before /invoices/:id.
import { AppError, billingSettingsSchema, checkoutSchema, invoiceQuerySchema, pixWebhookSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAdmin, requireAuth, requireSuper } from '../../auth/middleware.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery, parseWith } from '../../http/validate.ts';
import { readWebhook, SIGNATURE_HEADER, simulatorConfirmation, verifyWebhookSignature } from './providers.ts';
import { findInvoiceRow, findInvoicesPage } from './queries.ts';
import { confirmInvoicePayment, createPixCharge, getInvoice, invoiceNotFound, markInvoicePaid, scopeOf } from './service.ts';
import { findBillingSettings, saveBillingSettings } from './settings.ts';

export const markPaidSchema = z.object({ status: z.literal('paid') });

export function billingRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const app = new Hono<AppEnv>()
    .get('/invoices/all', auth, requireAdmin, async (c) => c.json(await findInvoicesPage(deps.db, scopeOf(c.get('actor')), parseQuery(c, invoiceQuerySchema))))
    .get('/invoices/:id', auth, requireAdmin, async (c) => c.json(await getInvoice(deps.db, c.get('actor'), parseId(c, 'id', 'ERR_NO_INVOICE_FOUND'))))
    // A payment received outside the platform, recorded by the super-admin.
    .put('/invoices/:id', auth, requireSuper, async (c) => {
      const id = parseId(c, 'id', 'ERR_NO_INVOICE_FOUND');
      await parseBody(c, markPaidSchema);
      return c.json(await write(deps, (tx) => markInvoicePaid(tx, c.get('actor'), id)));
    })
    // Whether a checkout can make a charge, asked as the checkout opens: with no Pix receiver the
    // company's admin learns it there, not after filling in the form.
    .get('/subscription/checkout', auth, requireAdmin, async (c) => c.json({ pixConfigured: (await findBillingSettings(deps.db)) !== null }))
    .post('/subscription', auth, requireAdmin, async (c) => {
      const input = await parseBody(c, checkoutSchema);
      return c.json(await write(deps, (tx) => createPixCharge(tx, c.get('actor'), input)));
    })
    .get('/billing/settings', auth, requireSuper, async (c) => {
      const settings = await findBillingSettings(deps.db);
      return c.json({ configured: settings !== null, pixKey: settings?.pixKey ?? '', merchantName: settings?.merchantName ?? '', merchantCity: settings?.merchantCity ?? '' });
    })
    .put('/billing/settings', auth, requireSuper, async (c) => {
      const input = await parseBody(c, billingSettingsSchema);
      return c.json({ configured: true, ...(await write(deps, (tx) => saveBillingSettings(tx, input))) });
    })
    // A provider's notice: the signature is checked on the exact bytes before anything is parsed.
    .post('/payments/webhook', async (c) => {
      const raw = await c.req.text();
      verifyWebhookSignature(deps.config.paymentWebhookSecret, raw, c.req.header(SIGNATURE_HEADER));
      let data: unknown;
      try {
        data = JSON.parse(raw);
      } catch {
        throw new AppError('ERR_INVALID_JSON');
      }
      const { confirmations, ignored } = await readWebhook(deps.db, parseWith(pixWebhookSchema, data));
      const outcomes = await write(deps, async (tx) => {
        const done = [];
        for (const k of confirmations) done.push(await confirmInvoicePayment(tx, k.invoice, k.reference));
        return done;
      });
      return c.json({ confirmed: outcomes.filter((o) => o.changed).map((o) => o.invoice.id), alreadyPaid: outcomes.filter((o) => !o.changed).map((o) => o.invoice.id), ignored });
    });
  // The fake bank (DESIGN §5): only with SIMULATOR=1, for an admin of the invoice's company or the super-admin.
  if (!deps.config.simulator) return app;
  return app.post('/simulator/payments/:invoiceId/confirm', auth, requireAdmin, async (c) => {
    const id = parseId(c, 'invoiceId', 'ERR_NO_INVOICE_FOUND');
    const actor = c.get('actor');
    return c.json(
      await write(deps, async (tx) => {
        const row = await findInvoiceRow(tx.db, scopeOf(actor), id);
        if (!row) throw invoiceNotFound();
        const k = simulatorConfirmation(row);
        return confirmInvoicePayment(tx, k.invoice, k.reference);
      }),
    );
  });
}
