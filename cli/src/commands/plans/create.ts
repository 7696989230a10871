import { planCreateSchema, type Plan } from '@zapdesk/sync';
import { defineCommand } from '../../define.ts';
import { buildBody, givenFlags } from '../../input.ts';
import { planOptions } from './options.ts';
import { showPlan } from './show.ts';

export default defineCommand({
  description: 'Create a plan (super-admin) from flags or a JSON/YAML file',
  examples: [
    'zapdesk plans create --name Pro --users 10 --connections 3 --queues 5 --value 99.90 --no-open-ai',
    'zapdesk plans create --from-file plan.yaml --json',
  ],
  options: planOptions,
  async run({ options }, ctx) {
    const body = await buildBody(ctx, planCreateSchema, options.fromFile, givenFlags(options));
    return ctx.api().post<Plan>('/plans', body);
  },
  show: (plan, { lang }) => showPlan(plan, lang),
});
