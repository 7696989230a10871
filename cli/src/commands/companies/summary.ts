// `zapdesk companies show ID`: the company as `get` shows it, plus what it owes: its unpaid (open or
// expired) invoices. (`get` stays the company alone, for scripts that read its JSON.)
import { formatCents, type Company, type Invoice, type InvoicesPage } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';
import { idArg } from '../shared.ts';
import { showCompany } from './show.ts';

export default defineCommand({
  description: 'Show one company with its due date and unpaid invoices',
  examples: ['zapdesk companies show 2', "zapdesk companies show 2 --json | jq '.openInvoices'"],
  args: [idArg('company')],
  options: z.object({}),
  async run({ args }, ctx) {
    const id = parseId(args[0], 'company');
    const api = ctx.api();
    const company = await api.get<Company>(`/companies/${id}`);
    const unpaid: Invoice[] = [];
    for (const status of ['expired', 'open'] as const) {
      for (let pageNumber = 1; ; pageNumber++) {
        const page = await api.get<InvoicesPage>('/invoices/all', { query: { companyId: id, status, pageNumber } });
        // An admin's list is always their own company's: keep only this one's.
        unpaid.push(...page.list.filter((i) => i.companyId === id));
        if (!page.hasMore || page.list.length === 0) break;
      }
    }
    return { ...company, openInvoices: unpaid.sort((a, b) => a.dueDate.localeCompare(b.dueDate)) };
  },
  show: (c, { lang }) => {
    const shown = showCompany(c);
    if (shown.kind !== 'record') return shown;
    const invoices = c.openInvoices.length ? c.openInvoices.map((i) => `#${i.id} ${formatCents(i.valueCents, lang)} due ${i.dueDate.slice(0, 10)} (${i.status})`).join('; ') : 'none';
    return { ...shown, fields: [...shown.fields, ['unpaid invoices', invoices]] };
  },
});
