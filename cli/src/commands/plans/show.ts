// How a plan reads on the terminal.
import { PLAN_FEATURES, type Plan, type PlanFeature } from '@zapdesk/sync';
import { column, type Shown } from '../../present.ts';
import type { CliLanguage } from '../../lang.ts';
import { reais } from '../shared.ts';

const FEATURES = Object.keys(PLAN_FEATURES) as PlanFeature[];

export const planFeatures = (plan: Plan) => FEATURES.filter((f) => plan[PLAN_FEATURES[f]]);

export const planColumns = (lang: CliLanguage) => [
  column<Plan>('id', (p) => p.id),
  column<Plan>('name', (p) => p.name),
  column<Plan>('users', (p) => p.users),
  column<Plan>('connections', (p) => p.connections),
  column<Plan>('queues', (p) => p.queues),
  column<Plan>('value', (p) => reais(p.value, lang)),
  column<Plan>('public', (p) => p.isPublic),
  column<Plan>('features', (p) => planFeatures(p)),
];

export function showPlan(plan: Plan, lang: CliLanguage): Shown {
  return {
    kind: 'record',
    title: `Plan ${plan.id}: ${plan.name}`,
    fields: [
      ['users', plan.users],
      ['connections', plan.connections],
      ['queues', plan.queues],
      ['value', reais(plan.value, lang)],
      ['public', plan.isPublic],
      ...FEATURES.map((f): [string, unknown] => [f, plan[PLAN_FEATURES[f]]]),
      ['updated', plan.updatedAt],
    ],
  };
}
