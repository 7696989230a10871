// One read model (issue 12): for the same queue, GET /queue/{id} and the value the sync view puts
// at `queue/<id>` are the same object, and both are what `queueSchema` describes.
import { queueSchema } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';
import { pullValue } from '../../../test/read-model.ts';

describe.each(DIALECTS)('queue read model on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('REST and sync send the same queue, and it parses with queueSchema', async () => {
    const { adminSession, userSession } = await seedTenant(t);
    const schedules = [{ weekdayEn: 'monday', startTime: '09:00', endTime: '17:00' }];
    const created = await t.request('POST', '/queue', {
      token: adminSession.token,
      body: { name: 'Support', color: '#7C3AED', greetingMessage: 'Hi!', outOfHoursMessage: 'Closed', orderQueue: 2, schedules },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;

    for (const { token } of [adminSession, userSession]) {
      const rest = (await t.request('GET', `/queue/${id}`, { token })).body;
      expect(rest).toMatchObject({ id, name: 'Support', orderQueue: 2, schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '09:00', endTime: '17:00' }] });
      expect(await pullValue(t, token, `queue/${id}`)).toEqual(rest);
      // parse drops undeclared fields: equality means the answer has none and every field fits.
      expect(queueSchema.parse(rest)).toEqual(rest);
      expect((await t.request('GET', '/queue', { token })).body).toContainEqual(rest);
    }
    expect(created.body).toEqual((await t.request('GET', `/queue/${id}`, { token: adminSession.token })).body);
  });
});
