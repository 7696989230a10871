// One read model (issue 12): for the same announcement, GET /announcements/{id} and the
// announcement/<id> pulled are equal and the wire schema, for a company's user (active ones only)
// and for the super-admin (all of them), and an edit reaches both.
import { announcementSchema } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { syncClient } from '../../../test/read-model.ts';
import { seedSuper, seedTenant } from '../../../test/seed.ts';

describe.each(DIALECTS)('the announcement read model on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('sends the same announcement over REST and sync, to whoever may read it', async () => {
    const { session: superSession } = await seedSuper(t);
    const { userSession } = await seedTenant(t);
    const create = async (body: object) => {
      const res = await t.request('POST', '/announcements', { token: superSession.token, body });
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    const active = await create({ title: 'Maintenance', text: 'Sunday 2am', priority: 1 });
    const hidden = await create({ title: 'Draft', text: 'Not yet', status: false });
    const get = (token: string, id: number) => t.request('GET', `/announcements/${id}`, { token });

    const userSync = syncClient(t, userSession.token);
    const first = await userSync.pull();
    const answer = (await get(userSession.token, active)).body;
    expect(first.puts.get(`announcement/${active}`)).toEqual(answer);
    expect(announcementSchema.parse(answer)).toEqual(answer);
    // An inactive one exists for neither transport outside the super-admin.
    expect(first.puts.has(`announcement/${hidden}`)).toBe(false);
    expect((await get(userSession.token, hidden)).status).toBe(404);
    const superPuts = (await syncClient(t, superSession.token).pull()).puts;
    expect(superPuts.get(`announcement/${hidden}`)).toEqual((await get(superSession.token, hidden)).body);

    expect((await t.request('PUT', `/announcements/${active}`, { token: superSession.token, body: { title: 'Maintenance moved' } })).status).toBe(200);
    const edited = (await userSync.pull()).puts.get(`announcement/${active}`);
    expect(edited).toMatchObject({ title: 'Maintenance moved' });
    expect(edited).toEqual((await get(userSession.token, active)).body);
  });
});
