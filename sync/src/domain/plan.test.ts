import { describe, expect, it } from 'vitest';
import { planCreateSchema, planUpdateSchema } from './plan.ts';

const base = { name: 'Pro', users: 5, connections: 2, queues: 4, value: 49.9 };

describe('plan bodies', () => {
  it('turns every switch on by default and stores the value in cents', () => {
    expect(planCreateSchema.parse(base)).toEqual({
      name: 'Pro', users: 5, connections: 2, queues: 4, valueCents: 4990, isPublic: true,
      useCampaigns: true, useSchedules: true, useInternalChat: true, useExternalApi: true, useKanban: true, useOpenAi: true, useIntegrations: true,
    });
  });

  it('reads the plan form names and the use* names alike', () => {
    const parsed = planCreateSchema.parse({ ...base, kanban: false, campaigns: 'disabled', openAi: 'false', useIntegrations: 0, internalChat: 'enabled' });
    expect(parsed).toMatchObject({ useKanban: false, useCampaigns: false, useOpenAi: false, useIntegrations: false, useInternalChat: true, useSchedules: true });
    expect(parsed).not.toHaveProperty('kanban');
    // A stored plan spread under the form's values: the form wins.
    expect(planCreateSchema.parse({ ...base, useKanban: true, kanban: false }).useKanban).toBe(false);
  });

  it('accepts numbers typed in a form and "49,90"', () => {
    expect(planCreateSchema.parse({ ...base, users: '7', value: '49,90' })).toMatchObject({ users: 7, valueCents: 4990 });
  });

  it('refuses missing fields, negative limits and bad amounts', () => {
    const r = planCreateSchema.safeParse({ name: ' ', users: -1, connections: 1.5, value: 'R$ 10' });
    expect(r.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'name: Required',
      'users: Must be 0 or more',
      'connections: Must be a whole number',
      'queues: Required',
      'value: Invalid amount',
    ]);
  });

  it('changes only what an update names', () => {
    expect(planUpdateSchema.parse({ schedules: false })).toEqual({ useSchedules: false });
    expect(planUpdateSchema.parse({})).toEqual({});
  });
});
