import { contactListQuerySchema, type Contact, type ContactsPage } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { UsageError } from '../../errors.ts';
import { firstFlagProblem, flagOf } from '../../options.ts';
import { contactColumns } from './show.ts';

const FLAG_OF: Record<string, string> = { searchParam: '--search', pageNumber: '--page', date: '--date' };

export default defineCommand({
  description: 'List contacts by name, 20 a page (or --all), searched by name or number',
  examples: ['zapdesk contacts list --search maria', 'zapdesk contacts list --page 3', "zapdesk contacts list --all --json | jq -r '.contacts[].number'"],
  options: z.object({
    search: z.string().optional().describe('words that start a word of the name, or the first digits of the number'),
    page: z.coerce.number().int().min(1).default(1).describe('page of 20 (default 1)'),
    all: z.boolean().default(false).describe('every page'),
    date: z.string().optional().describe('created on this UTC day (YYYY-MM-DD)'),
  }),
  async run({ options }, ctx) {
    const query = contactListQuerySchema.safeParse({ searchParam: options.search, pageNumber: options.page, date: options.date });
    if (!query.success) throw new UsageError(firstFlagProblem(query.error, { searchParam: options.search, pageNumber: options.page, date: options.date }, (key) => FLAG_OF[key] ?? flagOf(key)));
    const api = ctx.api();
    const contacts: Contact[] = [];
    for (let pageNumber = query.data.pageNumber; ; pageNumber++) {
      const page = await api.get<ContactsPage>('/contacts', { query: { searchParam: query.data.searchParam || undefined, pageNumber, date: query.data.date } });
      contacts.push(...page.contacts);
      if (!options.all || !page.hasMore || page.contacts.length === 0) return { contacts, count: page.count, hasMore: page.hasMore, page: pageNumber };
    }
  },
  show: (r) => ({
    kind: 'table',
    columns: contactColumns,
    rows: r.contacts,
    empty: 'No contacts found.',
    footer: `${r.contacts.length} of ${r.count} contacts${r.hasMore ? `; next: --page ${r.page + 1} (or --all)` : ''}`,
  }),
});
