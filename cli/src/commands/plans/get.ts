import type { Plan } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';
import { idArg } from '../shared.ts';
import { showPlan } from './show.ts';

export default defineCommand({
  description: 'Show one plan with its limits and features',
  examples: ['zapdesk plans get 2', 'zapdesk plans get 2 --json'],
  args: [idArg('plan')],
  options: z.object({}),
  run({ args }, ctx) {
    // The id is checked before the session, so a typo is a usage error even when logged out.
    const id = parseId(args[0], 'plan');
    return ctx.api().get<Plan>(`/plans/${id}`);
  },
  show: (plan, { lang }) => showPlan(plan, lang),
});
