import { INVOICE_STATUSES, type Invoice, type InvoicesPage } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { invoiceColumns } from './show.ts';

export default defineCommand({
  description: "List invoices: your company's, or every company's for the super-admin (--company narrows)",
  examples: ['zapdesk invoices list', 'zapdesk invoices list --company 2 --status open', "zapdesk invoices list --json | jq '.[] | select(.status == \"expired\") | .id'"],
  options: z.object({
    company: z.coerce.number().int().positive().optional().describe('only this company (super-admin)'),
    status: z.enum(INVOICE_STATUSES).optional().describe('paid, open or expired'),
    search: z.string().trim().optional().describe('text to search in the detail (and company name)'),
  }),
  async run({ options }, ctx) {
    const api = ctx.api();
    // Paged on the server; a script wants every row.
    const all: Invoice[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const page = await api.get<InvoicesPage>('/invoices/all', { query: { pageNumber, searchParam: options.search ?? '', companyId: options.company, status: options.status } });
      all.push(...page.list);
      if (!page.hasMore || page.list.length === 0) return all;
    }
  },
  show: (invoices, { lang }) => ({ kind: 'table', columns: invoiceColumns(lang), rows: invoices, empty: 'No invoices found.' }),
});
