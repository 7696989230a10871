import type { CompaniesPage, Company } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { companyColumns } from './show.ts';

export default defineCommand({
  description: 'List companies (super-admin), optionally searched by name, email, phone or document',
  examples: ['zapdesk companies list', 'zapdesk companies list --search acme', "zapdesk companies list --json | jq '.[] | select(.status == false)'"],
  options: z.object({ search: z.string().trim().optional().describe('text to search for') }),
  async run({ options }, ctx) {
    const api = ctx.api();
    if (!options.search) return api.get<Company[]>('/companies/list');
    // The search is paged on the server; a script wants every match.
    const all: Company[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const page = await api.get<CompaniesPage>('/companies', { query: { searchParam: options.search, pageNumber } });
      all.push(...page.companies);
      if (!page.hasMore || page.companies.length === 0) return all;
    }
  },
  show: (companies) => ({ kind: 'table', columns: companyColumns, rows: companies, empty: 'No companies found.' }),
});
