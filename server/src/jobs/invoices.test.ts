import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recurrence } from '@zapdesk/sync';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { seedCompany, seedPlan } from '../../test/seed.ts';
import type { AppDeps } from '../context.ts';
import { openDatabase } from '../db/database.ts';
import { write } from '../db/write.ts';
import { bumpVersion } from '../sync/version.ts';
import { confirmInvoicePayment } from '../modules/billing/service.ts';
import { findInvoiceRow } from '../modules/billing/queries.ts';
import { generateInvoices } from './invoices.ts';

describe.each(DIALECTS)('invoice job on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  /** A company on a 49.00 plan due at `dueDate` with `recurrence`. */
  async function company(dueDate: string, recurrence: Recurrence = 'MENSAL') {
    const plan = await seedPlan(t, { name: `Pro ${Math.random().toString(36).slice(2)}` });
    const c = await seedCompany(t, { planId: plan.id, dueDate });
    await t.db.updateTable('companies').set({ recurrence, ...bumpVersion() }).where('id', '=', c.id).execute();
    return { ...c, plan };
  }
  const invoicesOf = (companyId: number) =>
    t.db.selectFrom('invoices').select(['id', 'valueCents', 'dueDate', 'status', 'detail']).where('companyId', '=', companyId).orderBy('dueDate').execute();
  const dueOf = async (companyId: number) => (await t.db.selectFrom('companies').select('dueDate').where('id', '=', companyId).executeTakeFirstOrThrow()).dueDate;
  const pay = (invoiceId: number, now: Date) =>
    write(t.deps, async (tx) => confirmInvoicePayment(tx, (await findInvoiceRow(tx.db, 'all', invoiceId))!, 'test', now));

  it('issues nothing before the lead window, then one invoice for the period, whatever the passes', async () => {
    const c = await company('2030-03-20T12:00:00.000Z');
    await generateInvoices(t.deps, new Date('2030-03-01T00:00:00Z'));
    expect(await invoicesOf(c.id)).toEqual([]);
    await generateInvoices(t.deps, new Date('2030-03-11T00:00:00Z'));
    await generateInvoices(t.deps, new Date('2030-03-12T00:00:00Z'));
    expect(await invoicesOf(c.id)).toEqual([
      { id: expect.any(Number), valueCents: 4900, dueDate: '2030-03-20T12:00:00.000Z', status: 'open', detail: `${c.plan.name} · MENSAL · 2030-03-20 – 2030-04-20` },
    ]);
  });

  it('never issues two invoices for one period under concurrent passes (a second instance)', async () => {
    const c = await company('2030-05-05T00:00:00.000Z');
    const now = new Date('2030-05-01T00:00:00Z');
    await Promise.all([generateInvoices(t.deps, now), generateInvoices(t.deps, now), generateInvoices(t.deps, now)]);
    expect(await invoicesOf(c.id)).toHaveLength(1);
  });

  /** A second server instance: its own connection pool (SQLite: its own connection) on the same database. */
  async function secondInstance<T>(fn: (deps: AppDeps) => Promise<T>): Promise<T> {
    const { db } = openDatabase(t.deps.config.databaseUrl);
    try {
      return await fn({ ...t.deps, db });
    } finally {
      await db.destroy();
    }
  }

  it('two instances running the job at once on one database issue each period once', async () => {
    const companies = await Promise.all(['2032-02-03T00:00:00.000Z', '2032-02-05T00:00:00.000Z', '2032-02-07T00:00:00.000Z'].map((d) => company(d)));
    const now = new Date('2032-02-01T00:00:00Z');
    const [mine, theirs] = await secondInstance((other) => Promise.all([generateInvoices(t.deps, now), generateInvoices(other, now)]));
    const rows = await Promise.all(companies.map((c) => invoicesOf(c.id)));
    expect(rows.map((r) => r.length)).toEqual([1, 1, 1]);
    // Each of these invoices was inserted by exactly one of the two runs.
    const ids = rows.flat().map((r) => r.id);
    const issued = [...mine, ...theirs].filter((id) => ids.includes(id));
    expect(issued.sort()).toEqual(ids.sort());
  });

  it('two instances confirming one payment at once: paid once, due date moved once', async () => {
    const c = await company('2032-03-10T00:00:00.000Z');
    const now = new Date('2032-03-05T00:00:00Z');
    await generateInvoices(t.deps, now);
    const [invoice] = await invoicesOf(c.id);
    const payOn = (deps: AppDeps) => write(deps, async (tx) => confirmInvoicePayment(tx, (await findInvoiceRow(tx.db, 'all', invoice!.id))!, 'race', now));
    const outcomes = await secondInstance((other) => Promise.all([payOn(t.deps), payOn(other), payOn(t.deps)]));
    expect(outcomes.map((o) => o.changed).sort()).toEqual([false, false, true]);
    expect(await dueOf(c.id)).toBe('2032-04-10T00:00:00.000Z');
    expect(outcomes.every((o) => o.invoice.status === 'paid')).toBe(true);
  });

  it.each([
    ['MENSAL', 4900, '2028-02-29'],
    ['BIMESTRAL', 9800, '2028-03-31'],
    ['TRIMESTRAL', 14700, '2028-04-30'],
    ['SEMESTRAL', 29400, '2028-07-31'],
    ['ANUAL', 58800, '2029-01-31'],
  ] as const)('%s: value is the monthly price times the months; paying moves 31 January by the recurrence (leap year)', async (recurrence, cents, next) => {
    const c = await company('2028-01-31T15:00:00.000Z', recurrence);
    const now = new Date('2028-01-25T00:00:00Z');
    const [id] = await generateInvoices(t.deps, now).then(() => invoicesOf(c.id)).then((rows) => rows.map((r) => r.id));
    const [invoice] = await invoicesOf(c.id);
    expect(invoice).toMatchObject({ valueCents: cents, dueDate: '2028-01-31T15:00:00.000Z', detail: expect.stringContaining(`2028-01-31 – ${next}`) });
    const outcome = await pay(id!, now);
    expect(outcome.changed).toBe(true);
    expect(await dueOf(c.id)).toBe(`${next}T15:00:00.000Z`);
    // The next period's invoice comes when the new due date draws near, once.
    const later = new Date(Date.parse(`${next}T00:00:00Z`) - 5 * 86_400_000);
    await generateInvoices(t.deps, later);
    await generateInvoices(t.deps, later);
    expect((await invoicesOf(c.id)).map((r) => r.dueDate)).toEqual(['2028-01-31T15:00:00.000Z', `${next}T15:00:00.000Z`]);
  });

  it('a non-leap February: 31 January 2029 + 1 month is 28 February', async () => {
    const c = await company('2029-01-31T00:00:00.000Z');
    await generateInvoices(t.deps, new Date('2029-01-30T00:00:00Z'));
    const [invoice] = await invoicesOf(c.id);
    await pay(invoice!.id, new Date('2029-01-30T00:00:00Z'));
    expect(await dueOf(c.id)).toBe('2029-02-28T00:00:00.000Z');
  });

  it('a yearly plan due on 29 February 2028 renews to 28 February 2029, and a monthly one from 29 February to 29 March', async () => {
    const yearly = await company('2028-02-29T10:00:00.000Z', 'ANUAL');
    const monthly = await company('2028-02-29T10:00:00.000Z', 'MENSAL');
    const now = new Date('2028-02-20T00:00:00Z');
    await generateInvoices(t.deps, now);
    const [y] = await invoicesOf(yearly.id);
    const [m] = await invoicesOf(monthly.id);
    expect(y!.detail).toContain('2028-02-29 – 2029-02-28');
    await pay(y!.id, now);
    await pay(m!.id, now);
    expect(await dueOf(yearly.id)).toBe('2029-02-28T10:00:00.000Z');
    expect(await dueOf(monthly.id)).toBe('2028-03-29T10:00:00.000Z');
  });

  it('paying extends by the period the invoice charged for, even if the recurrence changed since', async () => {
    const c = await company('2032-06-10T00:00:00.000Z', 'MENSAL');
    const now = new Date('2032-06-05T00:00:00Z');
    await generateInvoices(t.deps, now);
    const [monthly] = await invoicesOf(c.id);
    expect(monthly!.valueCents).toBe(4900);
    // The super-admin moves the company to yearly before the monthly invoice is paid.
    await t.db.updateTable('companies').set({ recurrence: 'ANUAL', ...bumpVersion() }).where('id', '=', c.id).execute();
    await pay(monthly!.id, now);
    expect(await dueOf(c.id)).toBe('2032-07-10T00:00:00.000Z');
    // The next invoice is the yearly one, and paying it buys the year.
    await generateInvoices(t.deps, new Date('2032-07-05T00:00:00Z'));
    const [, yearly] = await invoicesOf(c.id);
    expect(yearly).toMatchObject({ valueCents: 58800, dueDate: '2032-07-10T00:00:00.000Z', detail: expect.stringContaining('ANUAL · 2032-07-10 – 2033-07-10') });
    await pay(yearly!.id, new Date('2032-07-05T00:00:00Z'));
    expect(await dueOf(c.id)).toBe('2033-07-10T00:00:00.000Z');
  });

  it('a late payment extends from today, not from the past due date; a second confirmation changes nothing', async () => {
    const c = await company('2030-06-10T00:00:00.000Z');
    await generateInvoices(t.deps, new Date('2030-06-05T00:00:00Z'));
    const [invoice] = await invoicesOf(c.id);
    const paidOn = new Date('2030-06-20T09:30:00.000Z');
    expect((await pay(invoice!.id, paidOn)).changed).toBe(true);
    expect(await dueOf(c.id)).toBe('2030-07-20T09:30:00.000Z');
    expect((await pay(invoice!.id, new Date('2030-06-21T00:00:00Z'))).changed).toBe(false);
    expect(await dueOf(c.id)).toBe('2030-07-20T09:30:00.000Z');
  });

  it('skips inactive companies and free plans', async () => {
    const free = await seedPlan(t, { name: `Free ${Math.random()}` });
    await t.db.updateTable('plans').set({ valueCents: 0, ...bumpVersion() }).where('id', '=', free.id).execute();
    const a = await seedCompany(t, { planId: free.id, dueDate: '2031-01-05T00:00:00.000Z' });
    const b = await seedCompany(t, { status: 0, dueDate: '2031-01-05T00:00:00.000Z' });
    await generateInvoices(t.deps, new Date('2031-01-01T00:00:00Z'));
    expect(await invoicesOf(a.id)).toEqual([]);
    expect(await invoicesOf(b.id)).toEqual([]);
  });
});
