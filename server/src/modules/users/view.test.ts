// One read model (issue 12): for the same user, GET /users/{id} and the user/<id> a colleague pulls
// are equal and both are the wire schema; the own row carries the language on both transports, the
// others' rows on neither; the session answers are that own row with the company; and a queue's
// rename reaches the synced users who work in it.
import { sessionAnswerSchema, sessionUserSchema, userSchema } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { syncClient } from '../../../test/read-model.ts';
import { loginAs, seedQueue, seedTenant, seedUserQueues } from '../../../test/seed.ts';

describe.each(DIALECTS)('the user read model on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('sends the same user over REST and sync, the language on the own row only', async () => {
    const { company, admin, user, adminSession } = await seedTenant(t);
    const queue = await seedQueue(t, company.id, { name: 'Sales' });
    await seedUserQueues(t, company.id, user.id, [queue.id]);
    const userSession = await loginAs(t, user);
    expect((await t.request('POST', '/users/set-language/es', { token: userSession.token })).status).toBe(200);

    const get = async (token: string, id: number) => {
      const res = await t.request('GET', `/users/${id}`, { token });
      expect(res.status).toBe(200);
      return res.body;
    };

    // The admin reads the attendant: no language on either transport.
    const adminSync = syncClient(t, adminSession.token);
    const pulled = await adminSync.pull();
    const other = pulled.puts.get(`user/${user.id}`);
    expect(other).toEqual(await get(adminSession.token, user.id));
    expect(other).toMatchObject({ queues: [{ id: queue.id, name: 'Sales', color: queue.color }] });
    expect(other).not.toHaveProperty('language');
    expect(userSchema.parse(other)).toEqual(other);
    // Their own row: the language on both.
    const ownAdmin = pulled.puts.get(`user/${admin.id}`);
    expect(ownAdmin).toEqual(await get(adminSession.token, admin.id));
    expect(ownAdmin).toHaveProperty('language', null);

    const userSync = syncClient(t, userSession.token);
    const own = (await userSync.pull()).puts.get(`user/${user.id}`);
    expect(own).toEqual(await get(userSession.token, user.id));
    expect(own).toMatchObject({ language: 'es' });
    expect(userSchema.parse(own)).toEqual(own);

    // The session answers are the own row plus the company.
    const me = await t.request('GET', '/auth/me', { token: userSession.token });
    expect(me.status).toBe(200);
    const { company: meCompany, ...meUser } = sessionUserSchema.parse(me.body);
    expect(meUser).toEqual(own);
    expect(meCompany).toMatchObject({ id: company.id, name: company.name, status: true });
    const login = await loginAs(t, user);
    expect(sessionAnswerSchema.parse(login.body).user).toEqual(me.body);

    // A renamed queue changes the user's value: the colleague's next pull brings it, equal to REST.
    expect((await t.request('PUT', `/queue/${queue.id}`, { token: adminSession.token, body: { name: 'Sales team' } })).status).toBe(200);
    const renamed = (await adminSync.pull()).puts.get(`user/${user.id}`);
    expect(renamed).toMatchObject({ queues: [{ id: queue.id, name: 'Sales team' }] });
    expect(renamed).toEqual(await get(adminSession.token, user.id));
  });

  it('lists the same users on GET /users, the own language included', async () => {
    const { admin, user, adminSession } = await seedTenant(t);
    const page = await t.request('GET', '/users', { token: adminSession.token });
    const synced = (await syncClient(t, adminSession.token).pull()).puts;
    for (const id of [admin.id, user.id]) {
      const listed = (page.body.users as { id: number }[]).find((u) => u.id === id);
      expect(listed).toEqual(synced.get(`user/${id}`));
    }
  });
});
