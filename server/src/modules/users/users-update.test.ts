import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { loginAs, seedConnection, seedQueue, seedSuper, seedTenant, seedUser } from '../../../test/seed.ts';

describe.each(DIALECTS)('PUT /users/:id on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const rowOf = (id: number) => t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const queueIdsOf = async (userId: number) =>
    (await t.db.selectFrom('userQueues').select('queueId').where('userId', '=', userId).execute()).map((r) => r.queueId).sort();

  it('lets an admin change everything, bumping the version', async () => {
    const { company, user, adminSession } = await seedTenant(t);
    const q1 = await seedQueue(t, company.id);
    const q2 = await seedQueue(t, company.id);
    const conn = await seedConnection(t, company.id);
    const before = await rowOf(user.id);
    const res = await t.request('PUT', `/users/${user.id}`, {
      token: adminSession.token,
      body: { name: 'Renamed', email: 'Renamed@Example.test', profile: 'supervisor', queueIds: [q1.id, q2.id], whatsappId: conn.id, allTicket: 'enabled', showNoQueue: true, language: 'es' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, name: 'Renamed', email: 'renamed@example.test', profile: 'supervisor', whatsappId: conn.id, allTicket: 'enabled', showNoQueue: true });
    expect(res.body.passwordHash).toBeUndefined();
    // The language is stored, but it shows only on the user's own row (users/dto.ts), not to the admin.
    expect(res.body).not.toHaveProperty('language');
    expect(await queueIdsOf(user.id)).toEqual([q1.id, q2.id].sort());
    const after = await rowOf(user.id);
    expect(after.version).toBe(before.version + 1);
    expect(after.language).toBe('es');

    // Partial bodies change only what they name; an empty queue list unlinks every queue.
    const partial = await t.request('PUT', `/users/${user.id}`, { token: adminSession.token, body: { queueIds: [], whatsappId: '' } });
    expect(partial.body).toMatchObject({ name: 'Renamed', profile: 'supervisor', queues: [], whatsappId: null });
    expect(await queueIdsOf(user.id)).toEqual([]);
  });

  it('lets a plain user update their own name, email, password and language', async () => {
    const { user, userSession } = await seedTenant(t);
    const res = await t.request('PUT', `/users/${user.id}`, {
      token: userSession.token,
      // The modal sends the whole form: unchanged profile, queues and flags are no change.
      body: { name: 'Me Myself', email: `me-${user.id}@example.test`, password: 'newpass', language: 'pt', profile: 'user', queueIds: [], allTicket: 'disabled', whatsappId: null },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Me Myself', email: `me-${user.id}@example.test`, language: 'pt', profile: 'user' });
    await loginAs(t, { email: `me-${user.id}@example.test`, password: 'newpass' });
  });

  it('refuses a plain user making themselves admin, taking queues or seeing all tickets; nothing changes', async () => {
    const { company, user, userSession } = await seedTenant(t);
    const queue = await seedQueue(t, company.id);
    const before = await rowOf(user.id);
    for (const body of [
      { profile: 'admin' },
      { name: 'Sneaky', profile: 'admin' },
      { queueIds: [queue.id] },
      { allTicket: 'enabled' },
      { showNoQueue: true },
      { whatsappId: (await seedConnection(t, company.id)).id },
    ]) {
      const res = await t.request('PUT', `/users/${user.id}`, { token: userSession.token, body });
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect(await rowOf(user.id)).toEqual(before);
    expect(await queueIdsOf(user.id)).toEqual([]);
    // And the session still works as a plain user.
    expect((await t.request('GET', '/users', { token: userSession.token })).status).toBe(403);
  });

  it('refuses a plain user editing someone else', async () => {
    const { admin, userSession } = await seedTenant(t);
    const res = await t.request('PUT', `/users/${admin.id}`, { token: userSession.token, body: { name: 'Hacked' } });
    expect(res.status).toBe(403);
    expect((await rowOf(admin.id)).name).toBe(admin.name);
  });

  it('answers 404 to an admin naming another company or its user and leaves that row unchanged', async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    const before = await rowOf(b.user.id);
    const res = await t.request('PUT', `/users/${b.user.id}`, { token: a.adminSession.token, body: { name: 'Taken Over', profile: 'admin', companyId: b.company.id } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_COMPANY_FOUND');
    const byId = await t.request('PUT', `/users/${b.user.id}`, { token: a.adminSession.token, body: { name: 'Taken Over', profile: 'admin' } });
    expect(byId.status).toBe(404);
    expect(byId.body.error).toBe('ERR_NO_USER_FOUND');
    expect(await rowOf(b.user.id)).toEqual(before);
    expect((await t.request('GET', `/users/${b.user.id}?companyId=${b.company.id}`, { token: a.adminSession.token })).status).toBe(404);
  });

  it('refuses a taken email with 409 and writes nothing', async () => {
    const { admin, user, adminSession } = await seedTenant(t);
    const before = await rowOf(user.id);
    const res = await t.request('PUT', `/users/${user.id}`, { token: adminSession.token, body: { name: 'Changed Too', email: admin.email } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_EMAIL_IN_USE');
    expect(await rowOf(user.id)).toEqual(before);
  });

  it("refuses another company's queue with 400 and keeps the user's queues", async () => {
    const { company, user, adminSession } = await seedTenant(t);
    const own = await seedQueue(t, company.id);
    await t.request('PUT', `/users/${user.id}`, { token: adminSession.token, body: { queueIds: [own.id] } });
    const foreign = await seedQueue(t, (await seedTenant(t)).company.id);
    const res = await t.request('PUT', `/users/${user.id}`, { token: adminSession.token, body: { queueIds: [own.id, foreign.id] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'queueIds' }] });
    expect(await queueIdsOf(user.id)).toEqual([own.id]);
  });

  it('validates the body', async () => {
    const { user, adminSession } = await seedTenant(t);
    for (const [body, path] of [
      [{ name: 'x' }, 'name'],
      [{ email: 'nope' }, 'email'],
      [{ password: '123' }, 'password'],
      [{ profile: 'owner' }, 'profile'],
      [{ language: 'fr' }, 'language'],
    ] as const) {
      const res = await t.request('PUT', `/users/${user.id}`, { token: adminSession.token, body });
      expect(res.status).toBe(400);
      expect(res.body.issues[0].path).toBe(path);
    }
  });

  it('a new password revokes the other sessions of the account, not the one making the request', async () => {
    const { user, adminSession } = await seedTenant(t);
    // The user changes their own password: their current session survives.
    const own = await loginAs(t, user);
    const res = await t.request('PUT', `/users/${user.id}`, { token: own.token, body: { password: 'another1' } });
    expect(res.status).toBe(200);
    expect((await t.request('GET', '/auth/me', { token: own.token })).status).toBe(200);

    // An admin resets it: every session of the user ends, recorded as password-changed.
    const res2 = await t.request('PUT', `/users/${user.id}`, { token: adminSession.token, body: { password: 'third01' } });
    expect(res2.status).toBe(200);
    expect((await t.request('GET', '/auth/me', { token: own.token })).status).toBe(401);
    expect((await t.request('POST', '/auth/refresh_token', { cookie: own.cookie })).status).toBe(401);
    const reasons = await t.db.selectFrom('userSessions').select('revokedReason').where('userId', '=', user.id).where('revokedReason', '=', 'password-changed').execute();
    expect(reasons).toHaveLength(1);
    expect((await t.request('GET', '/auth/me', { token: adminSession.token })).status).toBe(200);

    // The new password works; a profile change alone (an empty password is no change) keeps the sessions.
    const later = await loginAs(t, { email: user.email, password: 'third01' });
    const demote = await t.request('PUT', `/users/${user.id}`, { token: adminSession.token, body: { profile: 'supervisor', password: '' } });
    expect(demote.body.profile).toBe('supervisor');
    expect((await t.request('GET', '/auth/me', { token: later.token })).status).toBe(200);
  });

  it("protects the super-admin's account from company admins; the super-admin may edit any company's user", async () => {
    const { company, session, superUser } = await seedSuper(t);
    const colleague = await seedUser(t, company.id, { profile: 'admin' });
    const colleagueSession = await loginAs(t, colleague);
    const res = await t.request('PUT', `/users/${superUser.id}`, { token: colleagueSession.token, body: { password: 'owned01' } });
    expect(res.status).toBe(403);
    expect((await t.request('DELETE', `/users/${superUser.id}`, { token: colleagueSession.token })).status).toBe(403);

    const tenantB = await seedTenant(t);
    const edited = await t.request('PUT', `/users/${tenantB.user.id}?companyId=${tenantB.company.id}`, { token: session.token, body: { name: 'By Super' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'By Super', companyId: tenantB.company.id });
    const read = await t.request('GET', `/users/${tenantB.user.id}?companyId=${tenantB.company.id}`, { token: session.token });
    expect(read.body.name).toBe('By Super');
  });
});
