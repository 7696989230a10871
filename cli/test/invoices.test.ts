// Invoices from the terminal (issue 17): list them, see what a company owes, pay one through the
// simulator's bank; the real server in-process, the CLI as a process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInvoices } from '../../server/src/jobs/invoices.ts';
import type { RunningServer } from '../../server/src/server.ts';
import { json, login, startTestServer, tempConfigHome, zapdesk } from './helpers.ts';

let server: RunningServer;
let home: string;
let companyId: number;
let invoiceId: number;
beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  home = tempConfigHome();
  await login(server.apiUrl, home);
  // A company on a 1,234.50 plan due in 5 days: the invoice job issues its invoice.
  const db = server.deps.db;
  const plan = await db.insertInto('plans').values({ name: 'Enterprise', users: 50, connections: 10, queues: 20, valueCents: 123450 }).returning('id').executeTakeFirstOrThrow();
  const company = await db.insertInto('companies').values({ name: 'Pagadora Ltda', planId: plan.id, status: 1, dueDate: new Date(Date.now() + 5 * 86_400_000).toISOString() }).returning('id').executeTakeFirstOrThrow();
  companyId = company.id;
  const issued = await generateInvoices(server.deps);
  expect(issued).toHaveLength(1);
  invoiceId = issued[0]!;
}, 60_000);
afterAll(() => server?.close());

describe('zapdesk invoices', { timeout: 120_000 }, () => {
  it('lists, shows what a company owes, and pays once through the simulator', async () => {
    const listed = json(await zapdesk(['invoices', 'list', '--company', String(companyId), '--json'], { home }));
    expect(listed).toEqual([expect.objectContaining({ id: invoiceId, companyId, value: 1234.5, valueCents: 123450, status: 'open' })]);

    const table = await zapdesk(['invoices', 'list', '--status', 'open'], { home });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`${invoiceId}\\s+Pagadora Ltda \\(${companyId}\\).*R\\$ 1,234\\.50.*open`));

    const shown = await zapdesk(['companies', 'show', String(companyId)], { home });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/due date\s+\d{4}-\d{2}-\d{2} \(5d left\)/);
    expect(shown.stdout).toContain(`#${invoiceId} R$ 1,234.50 due`);

    // In Portuguese the same money reads R$ 1.234,50, in the table, the company and the plan.
    const pt = await zapdesk(['invoices', 'list', '--company', String(companyId), '--lang', 'pt'], { home });
    expect(pt.code, pt.stderr).toBe(0);
    expect(pt.stdout).toMatch(new RegExp(`${invoiceId}\\s+Pagadora Ltda .*R\\$ 1\\.234,50.*open`));
    expect((await zapdesk(['companies', 'show', String(companyId), '--lang', 'pt'], { home })).stdout).toContain(`#${invoiceId} R$ 1.234,50 due`);
    expect((await zapdesk(['plans', 'list', '--lang', 'pt'], { home })).stdout).toMatch(/Enterprise .*R\$ 1\.234,50/);
    expect((await zapdesk(['plans', 'list'], { home })).stdout).toMatch(/Enterprise .*R\$ 1,234\.50/);

    const paid = await zapdesk(['invoices', 'pay-sim', String(invoiceId)], { home });
    expect(paid.code, paid.stderr).toBe(0);
    expect(paid.stdout).toMatch(new RegExp(`Invoice ${invoiceId} paid \\(R\\$ 1,234\\.50\\): Pagadora Ltda is due \\d{4}-\\d{2}-\\d{2}\\.`));
    const again = json(await zapdesk(['invoices', 'pay-sim', String(invoiceId), '--json'], { home }));
    expect(again).toMatchObject({ changed: false, invoice: { id: invoiceId, status: 'paid' } });
    const after = json(await zapdesk(['companies', 'show', String(companyId), '--json'], { home }));
    expect(after).toMatchObject({ id: companyId, openInvoices: [] });
    expect(Date.parse(after.dueDate)).toBeGreaterThan(Date.now() + 30 * 86_400_000);
  });

  it('refuses a bad id as a usage error and an unknown invoice with the catalogue message', async () => {
    const bad = await zapdesk(['invoices', 'pay-sim', 'abc'], { home });
    expect(bad.code).toBe(2);
    const unknown = await zapdesk(['invoices', 'pay-sim', '999999'], { home });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Invoice not found.');
  });
});
