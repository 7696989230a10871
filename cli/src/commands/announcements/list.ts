import type { Announcement, AnnouncementsPage } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { announcementColumns } from './show.ts';

export default defineCommand({
  description: 'List announcements (the super-admin sees inactive ones too)',
  examples: ['zapdesk announcements list', 'zapdesk announcements list --search maintenance --json'],
  options: z.object({ search: z.string().trim().optional().describe('text to search for') }),
  async run({ options }, ctx) {
    const api = ctx.api();
    const all: Announcement[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const page = await api.get<AnnouncementsPage>('/announcements', { query: { searchParam: options.search, pageNumber } });
      all.push(...page.records);
      if (!page.hasMore || page.records.length === 0) return all;
    }
  },
  show: (rows) => ({ kind: 'table', columns: announcementColumns, rows, empty: 'No announcements.' }),
});
