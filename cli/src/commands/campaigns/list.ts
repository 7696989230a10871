import { CAMPAIGN_STATUSES, listQuerySchema, type Campaign, type CampaignPage } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { UsageError } from '../../errors.ts';
import { campaignColumns } from './format.ts';

export default defineCommand({
  description: 'List campaigns, newest first, 20 a page (or --all); --status reads every page and keeps that status',
  examples: ['zapdesk campaigns list', 'zapdesk campaigns list --status EM_ANDAMENTO', "zapdesk campaigns list --search black --json | jq '.records[] | {id, status}'"],
  options: z.object({
    status: z.enum(CAMPAIGN_STATUSES).optional().describe('only campaigns in this status'),
    search: z.string().optional().describe('part of the name'),
    page: z.coerce.number().int().min(1).default(1).describe('page of 20 (default 1)'),
    all: z.boolean().default(false).describe('every page'),
  }),
  async run({ options }, ctx) {
    const query = listQuerySchema.safeParse({ searchParam: options.search, pageNumber: options.page });
    if (!query.success) throw new UsageError(`option '--search': ${query.error.issues[0]!.message}`);
    // The server filters by name only: a status is kept here, over every page (a page of a filtered
    // list would otherwise be a page of the unfiltered one, perhaps empty while the next is not).
    const all = options.all || options.status !== undefined;
    const api = ctx.api();
    const records: Campaign[] = [];
    for (let pageNumber = all ? 1 : query.data.pageNumber; ; pageNumber++) {
      const page = await api.get<CampaignPage>('/campaigns', { query: { searchParam: query.data.searchParam || undefined, pageNumber } });
      records.push(...page.records.filter((c) => !options.status || c.status === options.status));
      if (!all || !page.hasMore || page.records.length === 0) return { records, count: options.status ? records.length : page.count, hasMore: page.hasMore, page: pageNumber };
    }
  },
  show: (r) => ({
    kind: 'table',
    columns: campaignColumns,
    rows: r.records,
    empty: 'No campaigns found.',
    footer: `${r.records.length} of ${r.count} campaigns${r.hasMore ? `; next: --page ${r.page + 1} (or --all)` : ''}`,
  }),
});
