// One read model (issue 12): for the same company, GET /companies/{id} and the company/<id> its users
// pull are equal and both are the wire schema, the plan inside it is what GET /companies/listPlan
// answers, and a change of the plan or of a setting reaches the synced value too.
import { companySchema, planSchema } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { syncClient } from '../../../test/read-model.ts';
import { seedSuper, seedTenant } from '../../../test/seed.ts';

describe.each(DIALECTS)('the company read model on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('sends the same company, plan and settings over REST and sync', async () => {
    const { company, plan, adminSession, userSession } = await seedTenant(t, { useKanban: 0 });
    const { session: superSession } = await seedSuper(t);
    const hours = [{ weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }];
    expect((await t.request('PUT', `/companies/${company.id}/schedules`, { token: adminSession.token, body: { schedules: hours } })).status).toBe(200);

    const key = `company/${company.id}`;
    const sync = syncClient(t, userSession.token);
    const rest = async () => {
      const res = await t.request('GET', `/companies/${company.id}`, { token: userSession.token });
      expect(res.status).toBe(200);
      return res.body;
    };

    const first = (await sync.pull()).puts.get(key);
    const answer = await rest();
    expect(first).toEqual(answer);
    expect(companySchema.parse(first)).toEqual(first);
    expect(answer).toMatchObject({ schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday' }], plan: { id: plan.id, useKanban: false, value: 49 } });
    expect(answer.settings).toContainEqual({ key: 'campaignsEnabled', value: 'true' });

    // The plan inside the company is the plan's own answer.
    const own = await t.request('GET', `/companies/listPlan/${company.id}`, { token: userSession.token });
    expect(own.status).toBe(200);
    expect(answer.plan).toEqual(own.body);
    expect(planSchema.parse(own.body)).toEqual(own.body);

    // A plan change and a setting change each put the company again, still equal to REST.
    expect((await t.request('PUT', `/plans/${plan.id}`, { token: superSession.token, body: { kanban: true } })).status).toBe(200);
    const afterPlan = (await sync.pull()).puts.get(key);
    expect(afterPlan).toMatchObject({ plan: { useKanban: true } });
    expect(afterPlan).toEqual(await rest());

    expect((await t.request('PUT', '/settings/campaignsEnabled', { token: adminSession.token, body: { value: 'false' } })).status).toBe(200);
    const afterSetting = (await sync.pull()).puts.get(key);
    expect(afterSetting).toMatchObject({ campaignsEnabled: false });
    expect(afterSetting).toEqual(await rest());
    expect(companySchema.parse(afterSetting)).toEqual(afterSetting);
  });

  it('answers the lists with the same company, settings aside', async () => {
    const { company } = await seedTenant(t);
    const { session } = await seedSuper(t);
    const one = (await t.request('GET', `/companies/${company.id}`, { token: session.token })).body;
    const page = await t.request('GET', '/companies', { token: session.token });
    const listed = [...(await t.request('GET', '/companies/list', { token: session.token })).body, ...page.body.companies].filter((c: { id: number }) => c.id === company.id);
    expect(listed.length).toBeGreaterThan(0);
    const { settings: _settings, ...withoutSettings } = one;
    for (const c of listed) expect(c).toEqual(withoutSettings);
  });
});
