// Billing in a real Chromium against the real server (spec/03 §2, §4; issue 17): the demo admin opens
// /financeiro, pays the open invoice through the checkout wizard (data, customise, review), gets a
// Pix code that is a valid BR Code for the invoice's amount, and when the simulator's bank confirms
// the payment the page says so with the new due date (top bar too, banner gone) without a reload,
// then returns home after 4 s.
import { parsePixCode } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateInvoices } from '../server/src/jobs/invoices.ts';
import { ADMIN_PASSWORD, apiAs, DEMO, login, newPage, shot, startE2E, type E2E } from './harness.ts';

vi.setConfig({ testTimeout: 120_000 });

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
}, 120_000);
afterAll(async () => {
  await e2e?.close();
});

describe('billing', () => {
  it('pays an invoice by Pix through the simulator and sees the due date move live', async () => {
    const superApi = await apiAs(e2e, DEMO.superAdmin, ADMIN_PASSWORD);
    // The demo company is due in 3 days: the invoice job issues its invoice.
    const db = e2e.server.deps.db;
    const company = await db.selectFrom('users').innerJoin('companies', 'companies.id', 'users.companyId').select(['companies.id']).where('users.email', '=', DEMO.admin).executeTakeFirstOrThrow();
    const dueDate = new Date(Date.now() + 3 * 86_400_000).toISOString();
    await db.updateTable('companies').set((eb) => ({ dueDate, version: eb('version', '+', 1) })).where('id', '=', company.id).execute();
    await generateInvoices(e2e.server.deps);
    const invoice = await db.selectFrom('invoices').selectAll().where('companyId', '=', company.id).executeTakeFirstOrThrow();

    const { context, page } = await newPage(e2e);
    await login(page, DEMO.admin, e2e.demoPassword);
    // The due-date banner leads to the invoices.
    const banner = page.getByTestId('subscription-banner');
    await banner.getByText('Your subscription is due in 3 days').waitFor();
    await banner.getByRole('link', { name: 'Pay the invoice' }).click();
    await page.getByRole('heading', { name: 'Invoices' }).waitFor();
    const row = page.getByRole('row', { name: new RegExp(`^${invoice.id} `) });
    await row.getByText('Open').waitFor();
    const price = `R$ ${(invoice.valueCents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    await row.getByText(price).waitFor();
    // The invoice job's detail in the reader's words: the recurrence named, the period as dd/mm/yyyy.
    await row.getByText(/ · Monthly · \d{2}\/\d{2}\/\d{4} – \d{2}\/\d{2}\/\d{4}$/).waitFor();
    // No Pix receiver on the platform yet: the checkout says so as it opens.
    await row.getByRole('button', { name: 'Pay' }).click();
    const wizard = page.getByRole('dialog', { name: 'Checkout' });
    await wizard.getByRole('alert').getByText('Pix payments are not configured yet. Please contact the platform administrator.').waitFor();
    await wizard.getByRole('button', { name: 'Close' }).click();
    await superApi('PUT', '/billing/settings', { pixKey: 'financeiro@zapdesk.test', merchantName: 'Zapdesk Tecnologia', merchantCity: 'Florianópolis' });
    await row.getByRole('button', { name: 'Pay' }).click();
    await wizard.getByRole('button', { name: 'Next' }).waitFor();
    expect(await wizard.getByRole('alert').count()).toBe(0);

    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('Required').first().waitFor();
    await wizard.getByLabel('First name').fill('Ana');
    await wizard.getByLabel('Address line 2 (number, complement)').fill('Rua das Flores, 100');
    await wizard.getByLabel('City').fill('Recife');
    // Step 1 checks the ZIP code's format with the server's own schema before moving on.
    await wizard.getByLabel('ZIP code').fill('50000/000!');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('Enter a ZIP code such as 01310-100').waitFor();
    await wizard.getByLabel('ZIP code').fill('50000-000');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.locator('[aria-current=step]').getByText('Customize').waitFor();
    await wizard.getByText('Monthly', { exact: true }).waitFor();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.locator('[aria-current=step]').getByText('Review').waitFor();
    await wizard.getByText(new RegExp(`^#${invoice.id} · .* · Monthly · \\d{2}/\\d{2}/\\d{4} – `)).waitFor();
    await wizard.getByRole('button', { name: `Pay ${price}` }).click();

    const pix = page.getByRole('dialog', { name: 'Pay with Pix' });
    await pix.getByRole('img', { name: 'Pay with Pix' }).waitFor();
    expect(await pix.getByTestId('pix-amount').textContent()).toBe(price);
    const code = await pix.getByLabel('Pix copy-and-paste code').inputValue();
    expect(parsePixCode(code)).toMatchObject({ key: 'financeiro@zapdesk.test', city: 'Florianopolis', amountCents: invoice.valueCents });
    await shot(page, 'billing-pix');
    // The copy button puts the very code on the clipboard.
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await pix.getByRole('button', { name: 'Copy code' }).click();
    await page.getByRole('status').filter({ hasText: 'Code copied.' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);

    // The bank pays: the simulator confirms (driven by the super-admin: signing the demo admin in
    // again would end the browser's session), the page hears payment CONCLUIDA on its socket.
    const paid = await superApi<{ dueDate: string }>('POST', `/simulator/payments/${invoice.id}/confirm`);
    const shown = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(new Date(paid.dueDate));
    // The wizard says so, and the invoices page under it toasts the renewal (spec/03 §2).
    await Promise.all([
      page.getByRole('status').filter({ hasText: 'Payment confirmed!' }).getByText(shown, { exact: false }).waitFor(),
      page.getByRole('status').filter({ hasText: `Subscription renewed until ${shown}.` }).waitFor(),
    ]);
    expect(Date.parse(paid.dueDate)).toBeGreaterThan(Date.parse(dueDate));
    // The top bar's date moved and the banner left, without a reload.
    await page.getByTestId('active-until').getByText(`Active until ${shown}`).waitFor();
    await banner.waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.pathname === '/', { timeout: 8_000 });
    await page.goto('/financeiro');
    await page.getByRole('row', { name: new RegExp(`^${invoice.id} `) }).getByText('Paid').waitFor();
    // The subscription page: paid until the new date, and nothing left to pay.
    await page.getByRole('link', { name: 'Subscription' }).click();
    await page.getByTestId('paid-until').filter({ hasText: shown }).waitFor();
    await page.getByTestId('recurrence').filter({ hasText: /^Monthly$/ }).waitFor();
    await page.getByRole('button', { name: 'Sign now' }).click();
    await page.getByRole('status').filter({ hasText: 'No open invoice: you are up to date.' }).waitFor();
    await context.close();
  });

  it('a company in its trial pays from /subscription: the trial notices leave and the paid-until date moves, live', async () => {
    const superApi = await apiAs(e2e, DEMO.superAdmin, ADMIN_PASSWORD);
    await superApi('PUT', '/billing/settings', { pixKey: '12345678000195', merchantName: 'Zapdesk', merchantCity: 'Recife' });
    const plans = await superApi<{ id: number; value: number; isPublic: boolean }[]>('GET', '/plans/all');
    const signup = await fetch(`${e2e.apiUrl}/companies/cadastro`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Padaria Trial', email: 'dona@padaria.test', phone: '(48) 99999-0000', password: 'padaria1', planId: plans.find((p) => p.isPublic && p.value > 0)!.id }),
    });
    expect(signup.status).toBe(201);
    const company = (await signup.json()) as { id: number; dueDate: string };

    const { context, page } = await newPage(e2e);
    await login(page, 'dona@padaria.test', 'padaria1');
    const banner = page.getByTestId('subscription-banner');
    await banner.getByText('Your trial ends in 3 days.').waitFor();
    await banner.getByRole('link', { name: 'Sign now' }).click();
    const card = page.getByRole('main');
    await card.getByText('Your trial ends in 3 days.').waitFor();
    // The trial's invoice is already there (issued on sign-up): "Sign now" opens its checkout.
    await page.getByRole('button', { name: 'Sign now' }).click();
    const wizard = page.getByRole('dialog', { name: 'Checkout' });
    await wizard.getByLabel('First name').fill('Dona');
    await wizard.getByLabel('Address line 2 (number, complement)').fill('Rua A, 1');
    await wizard.getByLabel('City').fill('Florianópolis');
    await wizard.getByLabel('ZIP code').fill('88000-000');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('button', { name: /^Pay R\$/ }).click();
    await page.getByLabel('Pix copy-and-paste code').waitFor();

    const invoice = await e2e.server.deps.db.selectFrom('invoices').select(['id', 'dueDate']).where('companyId', '=', company.id).executeTakeFirstOrThrow();
    expect(invoice.dueDate).toBe(company.dueDate);
    const paid = await superApi<{ dueDate: string }>('POST', `/simulator/payments/${invoice.id}/confirm`);
    const shown = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(new Date(paid.dueDate));
    await page.getByRole('status').filter({ hasText: 'Payment confirmed!' }).waitFor();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 8_000 });
    await banner.waitFor({ state: 'detached' });
    await page.goto('/subscription');
    await page.getByTestId('paid-until').filter({ hasText: shown }).waitFor();
    // A paying customer is no longer told about the trial.
    await expect(card.getByText(/trial/i).count()).resolves.toBe(0);
    await context.close();
  });

  it("the super-admin sets the Pix receiving account, sees every company's invoices and marks one paid", async () => {
    const superApi = await apiAs(e2e, DEMO.superAdmin, ADMIN_PASSWORD);
    const plans = await superApi<{ id: number; value: number }[]>('GET', '/plans/all');
    const due = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10);
    const company = await superApi<{ id: number }>('POST', '/companies', { name: 'Lojas Ômega', email: 'dono@omega.test', planId: plans.find((p) => p.value > 0)!.id, dueDate: due, password: 'omega1' });
    await generateInvoices(e2e.server.deps);
    const db = e2e.server.deps.db;
    const invoice = await db.selectFrom('invoices').selectAll().where('companyId', '=', company.id).executeTakeFirstOrThrow();

    // Signing the super-admin in here ends the API session above: from now on, the browser only.
    const { context, page } = await newPage(e2e);
    await login(page, DEMO.superAdmin, ADMIN_PASSWORD);
    await page.goto('/financeiro');
    const settings = page.getByRole('form', { name: 'Pix receiving account' });
    await settings.getByLabel('Pix key').fill('+5548999990000');
    await settings.getByLabel('Merchant name').fill('Zapdesk Serviços Digitais');
    await settings.getByLabel('Merchant city').fill('Florianópolis');
    await settings.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const stored = await db.selectFrom('platformSettings').select(['key', 'value']).where('key', 'like', 'billing.%').orderBy('key').execute();
    expect(stored).toEqual([
      { key: 'billing.merchantCity', value: 'Florianópolis' },
      { key: 'billing.merchantName', value: 'Zapdesk Serviços Digitais' },
      { key: 'billing.pixKey', value: '+5548999990000' },
    ]);

    await page.getByRole('searchbox', { name: 'Search invoices' }).fill('Omega');
    const row = page.getByRole('row', { name: new RegExp(`^${invoice.id} Lojas Ômega`) });
    await row.getByText('Open').waitFor();
    await row.getByText(`R$ ${(invoice.valueCents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`).waitFor();
    // The search (debounced) leaves only that company's invoices; the demo company's goes.
    await expect.poll(() => page.getByRole('row', { name: /Demo Company/ }).count(), { timeout: 5_000 }).toBe(0);
    await shot(page, 'billing-super');
    await row.getByRole('button', { name: 'Mark as paid' }).click();
    const confirm = page.getByRole('dialog', { name: 'Mark as paid' });
    await confirm.getByText(`Mark invoice ${invoice.id} as paid?`, { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Mark as paid' }).click();
    // Exact: 'Paid' alone also matches the row's own "Mark as paid" button, there until the status changes.
    await row.getByText('Paid', { exact: true }).waitFor();
    await expect(row.getByRole('button', { name: 'Mark as paid' }).count()).resolves.toBe(0);
    const after = await db.selectFrom('companies').select('dueDate').where('id', '=', company.id).executeTakeFirstOrThrow();
    expect(Date.parse(after.dueDate!)).toBeGreaterThan(Date.parse(`${due}T00:00:00Z`) + 27 * 86_400_000);
    await context.close();
  });
});
