import type { Help } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { helpColumns } from './show.ts';

export default defineCommand({
  description: 'List the help videos everyone sees on the Help page',
  examples: ['zapdesk helps list', 'zapdesk helps list --json'],
  options: z.object({}),
  run: (_input, ctx) => ctx.api().get<Help[]>('/helps/list'),
  show: (helps) => ({ kind: 'table', columns: helpColumns, rows: helps, empty: 'No help videos yet.' }),
});
