import { planUpdateSchema, type Plan } from '@zapdesk/sync';
import { defineCommand } from '../../define.ts';
import { buildBody, givenFlags, parseId } from '../../input.ts';
import { idArg } from '../shared.ts';
import { planOptions } from './options.ts';
import { showPlan } from './show.ts';

export default defineCommand({
  description: 'Change a plan (super-admin): only the fields given change',
  examples: ['zapdesk plans update 2 --users 20 --value 149.90', 'zapdesk plans update 2 --no-kanban', 'zapdesk plans update 2 --from-file plan.yaml'],
  args: [idArg('plan')],
  options: planOptions,
  async run({ args, options }, ctx) {
    const id = parseId(args[0], 'plan');
    const body = await buildBody(ctx, planUpdateSchema, options.fromFile, givenFlags(options));
    return ctx.api().put<Plan>(`/plans/${id}`, body);
  },
  show: (plan, { lang }) => showPlan(plan, lang),
});
