import { listQuerySchema, type FileListRecord } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { UsageError } from '../../errors.ts';
import { column } from '../../present.ts';

export default defineCommand({
  description: 'List file lists by name with their options and files, 20 a page (or --all)',
  examples: ['zapdesk files list', 'zapdesk files list --search price', "zapdesk files list --all --json | jq '.files[].options'"],
  options: z.object({
    search: z.string().optional().describe('part of the name'),
    page: z.coerce.number().int().min(1).default(1).describe('page of 20 (default 1)'),
    all: z.boolean().default(false).describe('every page'),
  }),
  async run({ options }, ctx) {
    const query = listQuerySchema.safeParse({ searchParam: options.search, pageNumber: options.page });
    if (!query.success) throw new UsageError(`option '--search': ${query.error.issues[0]!.message}`);
    const api = ctx.api();
    const files: FileListRecord[] = [];
    for (let pageNumber = query.data.pageNumber; ; pageNumber++) {
      const page = await api.get<{ files: FileListRecord[]; hasMore: boolean }>('/files', { query: { searchParam: query.data.searchParam || undefined, pageNumber } });
      files.push(...page.files);
      if (!options.all || !page.hasMore || page.files.length === 0) return { files, hasMore: page.hasMore, page: pageNumber };
    }
  },
  show: (r) => ({
    kind: 'table',
    columns: [
      column<FileListRecord>('id', (f) => f.id),
      column<FileListRecord>('name', (f) => f.name),
      column<FileListRecord>('message', (f) => f.message),
      column<FileListRecord>('files', (f) => f.options.map((o) => (o.path ? `${o.name} (${o.path})` : `${o.name} (no file)`)).join(', ')),
    ],
    rows: r.files,
    empty: 'No file lists found.',
    footer: `${r.files.length} file lists${r.hasMore ? `; next: --page ${r.page + 1} (or --all)` : ''}`,
  }),
});
