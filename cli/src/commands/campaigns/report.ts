import type { CampaignReport, CampaignShipping } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { UsageError } from '../../errors.ts';
import { parseId } from '../../input.ts';
import type { Api } from '../../session.ts';
import { idArg } from '../shared.ts';
import { progressLine, recipientColumns, showTotals } from './format.ts';

/** Reports whose progress view is already on the screen: nothing more to print for them. */
const drawnLive = new WeakSet<object>();

export default defineCommand({
  description: 'A campaign\'s totals and progress; --watch follows it live until FINALIZADA or CANCELADA; --recipients lists them (100 a page, or --all)',
  examples: [
    'zapdesk campaigns report 3',
    'zapdesk campaigns report 3 --watch',
    'zapdesk campaigns report 3 --recipients --all',
    "zapdesk campaigns report 3 --all --json | jq '.shipping | map(select(.state == \"failed\")) | map(.number)'",
    "zapdesk campaigns report 3 --watch --json | jq '.totals'",
  ],
  args: [idArg('campaign')],
  options: z.object({
    watch: z.boolean().default(false).describe('follow it live until it is FINALIZADA or CANCELADA (q or Ctrl-C stops watching; the campaign goes on)'),
    poll: z.boolean().default(false).describe('with --watch: read the report every second instead of on the server\'s pokes'),
    recipients: z.boolean().default(false).describe('list the recipients with their state instead of the totals'),
    page: z.coerce.number().int().min(1).default(1).describe('page of 100 recipients (default 1)'),
    all: z.boolean().default(false).describe('every page of recipients'),
  }),
  async run({ args, options }, ctx) {
    const id = parseId(args[0], 'campaign');
    if (options.poll && !options.watch) throw new UsageError('--poll goes with --watch');
    const api = ctx.api();
    if (options.watch) {
      const { watchReport } = await import('./report-watch.ts');
      const json = Boolean((options as { json?: boolean }).json);
      const { drawn } = await watchReport(ctx, api, id, { poll: options.poll, live: ctx.interactive && !json });
      // The recipients as they ended, read once at the end (pages of them on every poke would be wasted).
      const report = await readReport(api, id, options.all ? 1 : options.page, options.all);
      if (drawn && !options.recipients) drawnLive.add(report);
      return report;
    }
    return readReport(api, id, options.all ? 1 : options.page, options.all);
  },
  show: (r, { options }) => {
    if (options.recipients) {
      return {
        kind: 'table',
        columns: recipientColumns,
        rows: r.shipping,
        empty: 'No recipients yet: they are written when the campaign starts.',
        footer: `${progressLine(r)}${r.hasMore ? `\nmore recipients: --page ${options.page + 1} (or --all)` : ''}`,
      };
    }
    return drawnLive.has(r) ? undefined : showTotals(r);
  },
});

/** One page of recipients, or every page from `from` on with `all` (the totals of the last read). */
async function readReport(api: Api, id: number, from: number, all: boolean): Promise<CampaignReport> {
  const shipping: CampaignShipping[] = [];
  for (let pageNumber = from; ; pageNumber++) {
    const page = await api.get<CampaignReport>(`/campaigns/${id}/report`, { query: { pageNumber } });
    shipping.push(...page.shipping);
    if (!all || !page.hasMore || page.shipping.length === 0) return { ...page, shipping };
  }
}
