import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';

// REST writes of users and settings reach the synced clients: a poke after the commit, and the
// `auth` event for the sessions a new password or a user's deletion ended.
describe.each(DIALECTS)('users and settings notify clients on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('pokes the company after user and setting writes, and ends the sessions of a changed password and of a deleted user', async () => {
    const { company, user, adminSession, userSession } = await seedTenant(t);
    const poke = vi.spyOn(t.deps.realtime, 'pokeCompany');
    const revoked = vi.spyOn(t.deps.realtime, 'sessionRevoked');
    try {
      const sid = (await t.db.selectFrom('userSessions').select('id').where('userId', '=', user.id).where('revokedAt', 'is', null).executeTakeFirstOrThrow()).id;
      const res = await t.request('PUT', `/users/${user.id}`, { token: adminSession.token, body: { password: 'Another123' } });
      expect(res.status).toBe(200);
      expect(revoked).toHaveBeenCalledWith([sid], 'password-changed');
      expect(poke).toHaveBeenCalledWith(company.id);
      expect((await t.request('GET', '/auth/me', { token: userSession.token })).status).toBe(401);

      poke.mockClear();
      expect((await t.request('PUT', '/settings/userRating', { token: adminSession.token, body: { value: 'enabled' } })).status).toBe(200);
      expect(poke).toHaveBeenCalledWith(company.id);

      poke.mockClear();
      const created = await t.request('POST', '/users', {
        token: adminSession.token,
        body: { name: 'New One', email: `new-${Date.now()}@example.test`, password: 'Secret123', profile: 'user' },
      });
      expect(created.status).toBe(201);
      expect(poke).toHaveBeenCalledWith(company.id);

      // A deleted user's open devices are told their session ended.
      const login = await t.request('POST', '/auth/login', { body: { email: created.body.email, password: 'Secret123' } });
      const newSid = (await t.db.selectFrom('userSessions').select('id').where('userId', '=', created.body.id).where('revokedAt', 'is', null).executeTakeFirstOrThrow()).id;
      expect((await t.request('DELETE', `/users/${created.body.id}`, { token: adminSession.token })).status).toBe(200);
      expect(revoked).toHaveBeenCalledWith([newSid], 'user-deleted');
      expect((await t.request('GET', '/auth/me', { token: login.body.token })).status).toBe(401);
    } finally {
      poke.mockRestore();
      revoked.mockRestore();
    }
  });
});
