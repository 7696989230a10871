import type { Plan } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { planColumns } from './show.ts';

export default defineCommand({
  description: 'List every plan',
  examples: ['zapdesk plans list', "zapdesk plans list --json | jq '.[] | {id, name}'"],
  options: z.object({}),
  run: (_input, ctx) => ctx.api().get<Plan[]>('/plans/all'),
  show: (plans, { lang }) => ({ kind: 'table', columns: planColumns(lang), rows: plans, empty: 'No plans yet: zapdesk plans create --help' }),
});
