import { parsePixCode } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { loginAs, seedCompany, seedPlan, seedSuper, seedTenant, seedUser } from '../../../test/seed.ts';
import { generateInvoices } from '../../jobs/invoices.ts';
import type { ServerEvent } from '../../realtime/hub.ts';
import { signWebhookBody } from './providers.ts';

const SECRET = 'whsec-test';
const DAY = 86_400_000;
const checkout = (invoiceId: number) => ({ invoiceId, firstName: 'Ana', address2: 'Rua A, 10', city: 'Recife', zipcode: '50000-000', country: 'BR' });

describe.each(DIALECTS)('billing on %s', (dialect) => {
  let t: TestApp;
  let superToken: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true, paymentWebhookSecret: SECRET });
    superToken = (await seedSuper(t)).session.token;
  });
  afterAll(async () => t.close());

  /** A tenant due in 3 days with its invoice issued. */
  async function tenantWithInvoice() {
    const tenant = await seedTenant(t);
    const dueDate = new Date(Date.now() + 3 * DAY).toISOString();
    await t.db.updateTable('companies').set((eb) => ({ dueDate, version: eb('version', '+', 1) })).where('id', '=', tenant.company.id).execute();
    await generateInvoices(t.deps);
    const invoice = await t.db.selectFrom('invoices').selectAll().where('companyId', '=', tenant.company.id).executeTakeFirstOrThrow();
    return { ...tenant, invoice, dueDate, token: tenant.adminSession.token };
  }
  const configurePix = () => t.request('PUT', '/billing/settings', { token: superToken, body: { pixKey: 'cobranca@zapdesk.test', merchantName: 'Zapdesk Tecnologia Ltda', merchantCity: 'São Paulo' } });
  const companyDue = async (id: number) => (await t.db.selectFrom('companies').select('dueDate').where('id', '=', id).executeTakeFirstOrThrow()).dueDate;
  /** A socket of the company's admin, as realtime/ws.ts registers it; returns what it heard. */
  function listen(companyId: number, userId: number) {
    const heard: ServerEvent[] = [];
    const off = t.deps.realtime.register({ companyId, userId, sessionId: `s-${companyId}-${userId}`, send: (m) => void heard.push(m), close: () => {} });
    return { heard, off, payments: () => heard.filter((m) => m.type === 'event' && m.channel === 'payment') };
  }

  describe('GET /invoices/all', () => {
    it('lists the company own invoices with status, value in reais and paging', async () => {
      const a = await tenantWithInvoice();
      await tenantWithInvoice();
      const res = await t.request('GET', '/invoices/all?pageNumber=1', { token: a.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        list: [{ id: a.invoice.id, companyId: a.company.id, companyName: a.company.name, detail: expect.stringContaining('MENSAL'), value: 49, valueCents: 4900, dueDate: a.dueDate, status: 'open', paidAt: null, createdAt: expect.any(String) }],
        hasMore: false,
      });
      expect((await t.request('GET', '/invoices/all?searchParam=nothing-like-it', { token: a.token })).body.list).toEqual([]);
      expect((await t.request('GET', '/invoices/all?searchParam=mensal', { token: a.token })).body.list).toHaveLength(1);
    });

    it('pages 20 at a time, latest due date first, for the company and for the super-admin', async () => {
      const a = await seedTenant(t);
      const dueDates = Array.from({ length: 23 }, (_, i) => new Date(Date.UTC(2031, i, 10)).toISOString());
      await t.db.insertInto('invoices').values(dueDates.map((dueDate, i) => ({ companyId: a.company.id, detail: `Fatura ${i}`, valueCents: 100 + i, dueDate, status: 'open' }))).execute();
      const page1 = await t.request('GET', '/invoices/all', { token: a.adminSession.token });
      expect(page1.body.list).toHaveLength(20);
      expect(page1.body.hasMore).toBe(true);
      expect(page1.body.list[0].dueDate).toBe(dueDates[22]);
      const page2 = await t.request('GET', '/invoices/all?pageNumber=2', { token: a.adminSession.token });
      expect(page2.body).toMatchObject({ hasMore: false });
      expect(page2.body.list.map((i: { detail: string }) => i.detail)).toEqual(['Fatura 2', 'Fatura 1', 'Fatura 0']);
      const superPage2 = await t.request('GET', `/invoices/all?pageNumber=2&companyId=${a.company.id}`, { token: superToken });
      expect(superPage2.body.list.map((i: { id: number }) => i.id)).toEqual(page2.body.list.map((i: { id: number }) => i.id));
      // The search narrows before paging.
      const found = await t.request('GET', '/invoices/all?searchParam=fatura%2021', { token: a.adminSession.token });
      expect(found.body).toMatchObject({ list: [{ detail: 'Fatura 21', value: 1.21, valueCents: 121 }], hasMore: false });
    });

    it('a company signed up or created near its due date has its invoice at once, not at the next tick', async () => {
      const plan = await seedPlan(t, { name: `Trial ${Date.now()}` });
      await t.db.updateTable('plans').set((eb) => ({ isPublic: 1, version: eb('version', '+', 1) })).where('id', '=', plan.id).execute();
      const email = `trial-${Date.now()}@billing.test`;
      const signed = await t.request('POST', '/companies/cadastro', { body: { name: 'Padaria Trial', email, phone: '(11) 98765-4321', password: 'secret', planId: plan.id } });
      expect(signed.status).toBe(201);
      const trialToken = (await t.request('POST', '/auth/login', { body: { email, password: 'secret' } })).body.token;
      // The 3-day trial's invoice, issued by the wake after the sign-up's commit (no job runs here).
      await expect.poll(async () => (await t.request('GET', '/invoices/all', { token: trialToken })).body.list, { timeout: 5_000 }).toEqual([
        expect.objectContaining({ companyId: signed.body.id, dueDate: signed.body.dueDate, valueCents: 4900, status: 'open' }),
      ]);

      const due = new Date(Date.now() + 6 * DAY).toISOString().slice(0, 10);
      const created = await t.request('POST', '/companies', { token: superToken, body: { name: 'Criada Agora', email: `c-${Date.now()}@billing.test`, planId: plan.id, dueDate: due } });
      expect(created.status).toBe(201);
      await expect.poll(async () => (await t.request('GET', `/invoices/all?companyId=${created.body.id}`, { token: superToken })).body.list.length, { timeout: 5_000 }).toBe(1);
      // Moving the due date by hand (PUT /companies/:id) brings that period's invoice too.
      const later = new Date(Date.now() + 8 * DAY).toISOString().slice(0, 10);
      await t.request('PUT', `/companies/${created.body.id}`, { token: superToken, body: { dueDate: later } });
      await expect.poll(async () => (await t.request('GET', `/invoices/all?companyId=${created.body.id}`, { token: superToken })).body.list.map((i: { dueDate: string }) => i.dueDate.slice(0, 10)), { timeout: 5_000 }).toEqual([later, due]);
    });

    it('shows an unpaid invoice past its due date as expired', async () => {
      const a = await seedTenant(t);
      await t.db.updateTable('companies').set((eb) => ({ dueDate: new Date(Date.now() + 2 * DAY).toISOString(), version: eb('version', '+', 1) })).where('id', '=', a.company.id).execute();
      await generateInvoices(t.deps);
      const res = await t.request('GET', '/invoices/all', { token: a.adminSession.token });
      expect(res.body.list[0].status).toBe('open');
      await t.db.updateTable('invoices').set((eb) => ({ dueDate: new Date(Date.now() - 2 * DAY).toISOString(), version: eb('version', '+', 1) })).where('companyId', '=', a.company.id).execute();
      const after = await t.request('GET', '/invoices/all?status=expired', { token: a.adminSession.token });
      expect(after.body.list.map((i: { status: string }) => i.status)).toEqual(['expired']);
    });

    it('refuses attendants, hides other companies, and lets the super-admin see and narrow every company', async () => {
      const a = await tenantWithInvoice();
      const b = await tenantWithInvoice();
      expect((await t.request('GET', '/invoices/all', { token: a.userSession.token })).body.error).toBe('ERR_NO_PERMISSION');
      expect((await t.request('GET', '/invoices/all', { token: a.userSession.token })).status).toBe(403);
      const other = await t.request('GET', `/invoices/${b.invoice.id}`, { token: a.token });
      expect(other).toMatchObject({ status: 404, body: { error: 'ERR_NO_INVOICE_FOUND' } });
      const all = await t.request('GET', `/invoices/all?companyId=${b.company.id}`, { token: superToken });
      expect(all.body.list.map((i: { id: number }) => i.id)).toEqual([b.invoice.id]);
      const search = await t.request('GET', `/invoices/all?searchParam=${encodeURIComponent(a.company.name)}`, { token: superToken });
      expect(search.body.list.map((i: { id: number }) => i.id)).toEqual([a.invoice.id]);
      expect((await t.request('GET', '/invoices/all?pageNumber=0', { token: superToken })).body.error).toBe('ERR_VALIDATION');
      expect((await t.request('GET', '/invoices/abc', { token: superToken })).body.error).toBe('ERR_NO_INVOICE_FOUND');
    });
  });

  describe('POST /subscription', () => {
    it('answers ERR_PIX_NOT_CONFIGURED until the super-admin sets the receiving account', async () => {
      const a = await tenantWithInvoice();
      await t.db.deleteFrom('platformSettings').execute();
      // The checkout tells it as it opens, to the company's admin only.
      expect(await t.request('GET', '/subscription/checkout', { token: a.token })).toMatchObject({ status: 200, body: { pixConfigured: false } });
      expect((await t.request('GET', '/subscription/checkout', { token: a.userSession.token })).status).toBe(403);
      expect(await t.request('POST', '/subscription', { token: a.token, body: checkout(a.invoice.id) })).toMatchObject({ status: 409, body: { error: 'ERR_PIX_NOT_CONFIGURED' } });
      expect((await t.request('PUT', '/billing/settings', { token: a.token, body: { pixKey: 'x', merchantName: 'y', merchantCity: 'z' } })).status).toBe(403);
      expect((await t.request('PUT', '/billing/settings', { token: superToken, body: { pixKey: '', merchantName: 'y' } })).body.error).toBe('ERR_VALIDATION');
      expect((await configurePix()).body).toEqual({ configured: true, pixKey: 'cobranca@zapdesk.test', merchantName: 'Zapdesk Tecnologia Ltda', merchantCity: 'São Paulo' });
      expect((await t.request('GET', '/billing/settings', { token: superToken })).body.configured).toBe(true);
      expect((await t.request('GET', '/subscription/checkout', { token: a.token })).body).toEqual({ pixConfigured: true });
    });

    it('refuses a receiving account no bank could read: a malformed key, a name or city with no Latin letters', async () => {
      await configurePix();
      const put = (body: object) => t.request('PUT', '/billing/settings', { token: superToken, body: { pixKey: 'cobranca@zapdesk.test', merchantName: 'Zapdesk', merchantCity: 'Recife', ...body } });
      for (const pixKey of ['chave com espaço', 'não-é-email@', '+55 11 99999-8888', '123456', 'abc@', `${'a'.repeat(70)}@zapdesk.test`]) {
        expect((await put({ pixKey })).body, pixKey).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'pixKey' }] });
      }
      expect((await put({ merchantName: '日本語' })).body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'merchantName' }] });
      expect((await put({ merchantCity: '東京' })).body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'merchantCity' }] });
      // Every kind of key the central bank knows: e-mail, +55 phone, CPF, CNPJ, random (EVP).
      for (const pixKey of ['Cobranca@Zapdesk.test', '+5511999998888', '12345678909', '12345678000195', '123e4567-e12b-12d1-a456-426655440000']) {
        expect((await put({ pixKey })).status, pixKey).toBe(200);
      }
      // Settings stored before these checks (written in the database) make checkout answer
      // ERR_PIX_NOT_CONFIGURED, not a 500.
      const a0 = await tenantWithInvoice();
      await t.db.updateTable('platformSettings').set({ value: '日本語' }).where('key', '=', 'billing.merchantName').execute();
      expect(await t.request('POST', '/subscription', { token: a0.token, body: checkout(a0.invoice.id) })).toMatchObject({ status: 409, body: { error: 'ERR_PIX_NOT_CONFIGURED' } });
      await put({ pixKey: '123e4567-e12b-12d1-a456-426655440000' });
      // The checkout still answers for what was stored, never a 500.
      const a = await tenantWithInvoice();
      expect(parsePixCode((await t.request('POST', '/subscription', { token: a.token, body: checkout(a.invoice.id) })).body.qrcode.qrcode)?.key).toBe('123e4567-e12b-12d1-a456-426655440000');
      await configurePix();
    });

    it('answers the Pix data of the invoice: a BR Code that parses back with the key, amount and txid', async () => {
      await configurePix();
      const a = await tenantWithInvoice();
      const res = await t.request('POST', '/subscription', { token: a.token, body: checkout(a.invoice.id) });
      expect(res.status).toBe(200);
      expect(res.body.valor).toEqual({ original: '49.00' });
      const parsed = parsePixCode(res.body.qrcode.qrcode);
      expect(parsed).toMatchObject({ key: 'cobranca@zapdesk.test', name: 'Zapdesk Tecnologia Ltda', city: 'Sao Paulo', amountCents: 4900, txid: res.body.txid });
      // The same invoice keeps its txid, so every code shown for it is settled by one payment.
      const again = await t.request('POST', '/subscription', { token: a.token, body: checkout(a.invoice.id) });
      expect(again.body.txid).toBe(res.body.txid);
    });

    it('every code it answers parses back: a yearly invoice of R$ 1,481.40, the long accented name cut to 25 and city to 15', async () => {
      const long = { pixKey: '+5541999990000', merchantName: 'Zapdesk Tecnologia e Serviços de Atendimento Ltda', merchantCity: 'São José dos Pinhais do Sul' };
      expect((await t.request('PUT', '/billing/settings', { token: superToken, body: long })).status).toBe(200);
      const plan = await seedPlan(t, { name: 'Anual Pro' });
      await t.db.updateTable('plans').set((eb) => ({ valueCents: 12345, version: eb('version', '+', 1) })).where('id', '=', plan.id).execute();
      const company = await seedCompany(t, { planId: plan.id, dueDate: new Date(Date.now() + 4 * DAY).toISOString() });
      await t.db.updateTable('companies').set((eb) => ({ recurrence: 'ANUAL', version: eb('version', '+', 1) })).where('id', '=', company.id).execute();
      const admin = await seedUser(t, company.id, { profile: 'admin' });
      const token = (await loginAs(t, admin)).token;
      await generateInvoices(t.deps);
      const invoice = (await t.request('GET', '/invoices/all', { token })).body.list[0];
      expect(invoice).toMatchObject({ value: 1481.4, valueCents: 148140 });
      const res = await t.request('POST', '/subscription', { token, body: checkout(invoice.id) });
      expect(res.body.valor).toEqual({ original: '1481.40' });
      const code: string = res.body.qrcode.qrcode;
      expect(parsePixCode(code)).toEqual({
        key: '+5541999990000', name: 'Zapdesk Tecnologia e Serv', city: 'Sao Jose dos Pi', amountCents: 148140, txid: res.body.txid,
        description: undefined, pointOfInitiation: undefined, url: undefined,
      });
      // The fields in ID order with their lengths, as the manual writes them.
      const txid: string = res.body.txid;
      expect(txid).toMatch(/^[A-Za-z0-9]{1,25}$/);
      const tlv = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;
      expect(code).toBe(
        '000201' + '26360014br.gov.bcb.pix0114+5541999990000' + '52040000' + '5303986' + '54071481.40' + '5802BR' +
          '5925Zapdesk Tecnologia e Serv' + '6015Sao Jose dos Pi' + tlv('62', tlv('05', txid)) + '6304' + code.slice(-4),
      );
      await configurePix();
    });

    it('refuses bad input, another company\'s invoice and a paid one with catalogue errors', async () => {
      await configurePix();
      const a = await tenantWithInvoice();
      const b = await tenantWithInvoice();
      const missing = await t.request('POST', '/subscription', { token: a.token, body: { invoiceId: a.invoice.id } });
      expect(missing.status).toBe(400);
      expect(missing.body.issues.map((i: { path: string }) => i.path)).toEqual(expect.arrayContaining(['firstName', 'address2', 'city', 'zipcode', 'country']));
      expect((await t.request('POST', '/subscription', { token: a.token, body: '{not json' })).body.error).toBe('ERR_INVALID_JSON');
      expect((await t.request('POST', '/subscription', { token: a.token, body: checkout(b.invoice.id) })).body.error).toBe('ERR_NO_INVOICE_FOUND');
      expect((await t.request('POST', '/subscription', { token: a.userSession.token, body: checkout(a.invoice.id) })).status).toBe(403);
      await t.request('POST', `/simulator/payments/${a.invoice.id}/confirm`, { token: a.token });
      expect(await t.request('POST', '/subscription', { token: a.token, body: checkout(a.invoice.id) })).toMatchObject({ status: 409, body: { error: 'ERR_INVOICE_ALREADY_PAID' } });
    });
  });

  describe('payments', () => {
    it('the simulator pays once: invoice paid, due date one recurrence on, payment CONCLUIDA to that company only', async () => {
      const a = await tenantWithInvoice();
      const b = await tenantWithInvoice();
      const mine = listen(a.company.id, a.admin.id);
      const theirs = listen(b.company.id, b.admin.id);
      const res = await t.request('POST', `/simulator/payments/${a.invoice.id}/confirm`, { token: a.token });
      expect(res.status).toBe(200);
      const expected = new Date(a.dueDate);
      expected.setUTCMonth(expected.getUTCMonth() + 1);
      expect(res.body).toMatchObject({ changed: true, invoice: { id: a.invoice.id, status: 'paid', paidAt: expect.any(String) } });
      const due = await companyDue(a.company.id);
      expect(res.body.dueDate).toBe(due);
      expect(Math.abs(Date.parse(due!) - expected.getTime())).toBeLessThan(3 * DAY);
      expect(mine.payments()).toEqual([{ type: 'event', channel: 'payment', data: { action: 'CONCLUIDA', invoiceId: a.invoice.id, dueDate: due } }]);
      expect(theirs.payments()).toEqual([]);
      const again = await t.request('POST', `/simulator/payments/${a.invoice.id}/confirm`, { token: a.token });
      expect(again.body).toMatchObject({ changed: false, dueDate: due });
      expect(await companyDue(a.company.id)).toBe(due);
      expect(mine.payments()).toHaveLength(1);
      // Another company's invoice is unknown to this admin.
      expect((await t.request('POST', `/simulator/payments/${b.invoice.id}/confirm`, { token: a.token })).body.error).toBe('ERR_NO_INVOICE_FOUND');
      mine.off();
      theirs.off();
    });

    it('the webhook: refused unsigned or wrongly signed; a signed one pays once however often it comes', async () => {
      await configurePix();
      const a = await tenantWithInvoice();
      const charge = await t.request('POST', '/subscription', { token: a.token, body: checkout(a.invoice.id) });
      const body = JSON.stringify({ pix: [{ txid: charge.body.txid, valor: '49.00', endToEndId: 'E123' }, { txid: 'UNKNOWN1', valor: '1.00' }] });
      expect(await t.request('POST', '/payments/webhook', { body })).toMatchObject({ status: 401, body: { error: 'ERR_INVALID_SIGNATURE' } });
      expect((await t.request('POST', '/payments/webhook', { body, headers: { 'x-zapdesk-signature': signWebhookBody('wrong', body) } })).status).toBe(401);
      expect((await t.request('POST', '/payments/webhook', { body: body.replace('49.00', '0.01'), headers: { 'x-zapdesk-signature': signWebhookBody(SECRET, body) } })).status).toBe(401);
      expect(await t.request('GET', `/invoices/${a.invoice.id}`, { token: a.token })).toMatchObject({ body: { status: 'open' } });
      const before = await companyDue(a.company.id);

      const signed = { body, headers: { 'x-zapdesk-signature': signWebhookBody(SECRET, body) } };
      const first = await t.request('POST', '/payments/webhook', signed);
      expect(first).toMatchObject({ status: 200, body: { confirmed: [a.invoice.id], alreadyPaid: [], ignored: [{ txid: 'UNKNOWN1', reason: 'unknown txid' }] } });
      const due = await companyDue(a.company.id);
      expect(Date.parse(due!)).toBeGreaterThan(Date.parse(before!));
      const second = await t.request('POST', '/payments/webhook', signed);
      expect(second.body).toMatchObject({ confirmed: [], alreadyPaid: [a.invoice.id] });
      expect(await companyDue(a.company.id)).toBe(due);
      const row = await t.db.selectFrom('invoices').select(['status', 'paymentRef']).where('id', '=', a.invoice.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'paid', paymentRef: 'webhook:E123' });
    });

    it('the webhook ignores a payment of another amount, and answers catalogue errors to bad bodies', async () => {
      await configurePix();
      const a = await tenantWithInvoice();
      const charge = await t.request('POST', '/subscription', { token: a.token, body: checkout(a.invoice.id) });
      const send = (raw: string) => t.request('POST', '/payments/webhook', { body: raw, headers: { 'x-zapdesk-signature': signWebhookBody(SECRET, raw) } });
      expect((await send(JSON.stringify({ pix: [{ txid: charge.body.txid, valor: '48.99' }] }))).body).toEqual({ confirmed: [], alreadyPaid: [], ignored: [{ txid: charge.body.txid, reason: 'amount differs' }] });
      expect((await send('{oops')).body.error).toBe('ERR_INVALID_JSON');
      expect((await send(JSON.stringify({ pix: [] }))).body.error).toBe('ERR_VALIDATION');
      expect(await t.request('GET', `/invoices/${a.invoice.id}`, { token: a.token })).toMatchObject({ body: { status: 'open' } });
    });

    it('a provider paying a code shown before the due date lifts the login refusal once the company is overdue', async () => {
      await configurePix();
      const a = await tenantWithInvoice();
      const charge = await t.request('POST', '/subscription', { token: a.token, body: checkout(a.invoice.id) });
      // The due date passes before the bank's notice arrives: the admin is refused at login.
      await t.db.updateTable('companies').set((eb) => ({ dueDate: new Date(Date.now() - DAY).toISOString(), version: eb('version', '+', 1) })).where('id', '=', a.company.id).execute();
      expect((await t.request('POST', '/auth/login', { body: { email: a.admin.email, password: a.admin.password } })).body.error).toBe('ERR_SUBSCRIPTION_EXPIRED');
      const body = JSON.stringify({ pix: [{ txid: charge.body.txid, valor: '49.00', endToEndId: 'E999' }] });
      const res = await t.request('POST', '/payments/webhook', { body, headers: { 'x-zapdesk-signature': signWebhookBody(SECRET, body) } });
      expect(res.body.confirmed).toEqual([a.invoice.id]);
      // Overdue: one recurrence (a month) from today.
      const due = Date.parse((await companyDue(a.company.id))!);
      expect(due).toBeGreaterThan(Date.now() + 27 * DAY);
      expect(due).toBeLessThan(Date.now() + 32 * DAY);
      expect((await loginAs(t, a.admin)).token).toEqual(expect.any(String));
    });

    it('the super-admin marks an invoice paid by hand, which lifts the login refusal of an overdue company', async () => {
      const plan = await t.db.selectFrom('plans').select('id').executeTakeFirstOrThrow();
      const company = await seedCompany(t, { planId: plan.id, dueDate: new Date(Date.now() - 2 * DAY).toISOString() });
      const admin = await seedUser(t, company.id, { profile: 'admin' });
      await generateInvoices(t.deps);
      const invoice = await t.db.selectFrom('invoices').select('id').where('companyId', '=', company.id).executeTakeFirstOrThrow();
      const refused = await t.request('POST', '/auth/login', { body: { email: admin.email, password: admin.password } });
      expect(refused.body.error).toBe('ERR_SUBSCRIPTION_EXPIRED');
      const other = await tenantWithInvoice();
      expect((await t.request('PUT', `/invoices/${invoice.id}`, { token: other.token, body: { status: 'paid' } })).status).toBe(403);
      expect((await t.request('PUT', `/invoices/${invoice.id}`, { token: superToken, body: { status: 'open' } })).body.error).toBe('ERR_VALIDATION');
      const paid = await t.request('PUT', `/invoices/${invoice.id}`, { token: superToken, body: { status: 'paid' } });
      expect(paid.body).toMatchObject({ changed: true, invoice: { status: 'paid' } });
      // Overdue: a month from today, not from the past due date.
      expect(Date.parse(paid.body.dueDate)).toBeGreaterThan(Date.now() + 27 * DAY);
      const session = await loginAs(t, admin);
      expect(session.token).toEqual(expect.any(String));
      expect((await t.request('PUT', '/invoices/999999', { token: superToken, body: { status: 'paid' } })).body.error).toBe('ERR_NO_INVOICE_FOUND');
    });
  });
});

describe('billing without the simulator or a webhook secret', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { simulator: false, paymentWebhookSecret: undefined });
  });
  afterAll(async () => t.close());

  it('has no simulator payment control and refuses every webhook', async () => {
    const { adminSession } = await seedTenant(t);
    expect((await t.request('POST', '/simulator/payments/1/confirm', { token: adminSession.token })).status).toBe(404);
    const body = JSON.stringify({ pix: [{ txid: 'X', valor: '1.00' }] });
    expect((await t.request('POST', '/payments/webhook', { body, headers: { 'x-zapdesk-signature': signWebhookBody('', body) } })).body.error).toBe('ERR_INVALID_SIGNATURE');
  });
});
