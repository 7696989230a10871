// One read model (issue 12): for the same tag, GET /tags/{id} and the value the sync view puts at
// `tag/<id>` are the same object, and both are what `tagSchema` describes.
import { tagSchema, tagWithCountSchema } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';
import { pullValue } from '../../../test/read-model.ts';

describe.each(DIALECTS)('tag read model on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('REST and sync send the same tag, and it parses with tagSchema', async () => {
    const { adminSession, userSession } = await seedTenant(t);
    const created = await t.request('POST', '/tags', { token: adminSession.token, body: { name: 'Urgent', color: '#FF0000', kanban: 1 } });
    expect(created.status).toBe(201);
    const id = created.body.id as number;

    for (const { token } of [adminSession, userSession]) {
      const rest = (await t.request('GET', `/tags/${id}`, { token })).body;
      expect(rest).toMatchObject({ id, name: 'Urgent', color: '#FF0000', kanban: 1 });
      expect(await pullValue(t, token, `tag/${id}`)).toEqual(rest);
      expect(tagSchema.parse(rest)).toEqual(rest);
      expect((await t.request('GET', '/tags/list', { token })).body).toContainEqual(rest);
      // The page of GET /tags is the same tag with its ticket count.
      const row = (await t.request('GET', '/tags', { token })).body.tags.find((x: { id: number }) => x.id === id);
      expect(tagWithCountSchema.parse(row)).toEqual({ ...rest, ticketsCount: 0 });
    }
    expect(created.body).toEqual((await t.request('GET', `/tags/${id}`, { token: adminSession.token })).body);
  });
});
