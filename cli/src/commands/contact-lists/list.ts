import { contactListPageQuerySchema, type ContactList } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { UsageError } from '../../errors.ts';
import { contactListColumns } from './show.ts';

export default defineCommand({
  description: 'List contact lists by name with how many contacts each holds, 20 a page (or --all)',
  examples: ['zapdesk contact-lists list', 'zapdesk contact-lists list --search leads', "zapdesk contact-lists list --all --json | jq '.records[].id'"],
  options: z.object({
    search: z.string().optional().describe('part of the name'),
    page: z.coerce.number().int().min(1).default(1).describe('page of 20 (default 1)'),
    all: z.boolean().default(false).describe('every page'),
  }),
  async run({ options }, ctx) {
    const query = contactListPageQuerySchema.safeParse({ searchParam: options.search, pageNumber: options.page });
    if (!query.success) throw new UsageError(`option '--search': ${query.error.issues[0]!.message}`);
    const api = ctx.api();
    const records: ContactList[] = [];
    for (let pageNumber = query.data.pageNumber; ; pageNumber++) {
      const page = await api.get<{ records: ContactList[]; hasMore: boolean }>('/contact-lists', { query: { searchParam: query.data.searchParam || undefined, pageNumber } });
      records.push(...page.records);
      if (!options.all || !page.hasMore || page.records.length === 0) return { records, hasMore: page.hasMore, page: pageNumber };
    }
  },
  show: (r) => ({
    kind: 'table',
    columns: contactListColumns,
    rows: r.records,
    empty: 'No contact lists found.',
    footer: `${r.records.length} contact lists${r.hasMore ? `; next: --page ${r.page + 1} (or --all)` : ''}`,
  }),
});
