import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signAccessToken } from '../../auth/tokens.ts';
import { createTestApp, DIALECTS, refreshCookie, type TestApp } from '../../../test/harness.ts';
import { loginAs, seedCompany, seedTenant, seedUser } from '../../../test/seed.ts';

describe.each(DIALECTS)('auth on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  describe('POST /auth/login', () => {
    it('returns a token, the user with company and settings, and the subscription days', async () => {
      const { admin } = await seedTenant(t);
      const res = await t.request('POST', '/auth/login', { body: { email: admin.email.toUpperCase(), password: admin.password } });
      expect(res.status).toBe(200);
      expect(typeof res.body.token).toBe('string');
      expect(res.body.user).toMatchObject({ id: admin.id, email: admin.email, profile: 'admin', super: false, companyId: admin.companyId });
      expect(res.body.user.passwordHash).toBeUndefined();
      expect(res.body.user.company.settings).toContainEqual({ key: 'campaignsEnabled', value: 'true' });
      expect(res.body.subscription).toMatchObject({ daysLeft: 30, expiresSoon: false });
      expect(res.body.refreshToken).toBeUndefined();
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('jrt='));
      expect(cookie).toMatch(/HttpOnly/i);
    });

    it('refuses a wrong password and an unknown email with ERR_INVALID_CREDENTIALS', async () => {
      const { admin } = await seedTenant(t);
      const wrong = await t.request('POST', '/auth/login', { body: { email: admin.email, password: 'nope' } });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ error: 'ERR_INVALID_CREDENTIALS' });
      const unknown = await t.request('POST', '/auth/login', { body: { email: 'nobody@example.test', password: 'x' } });
      expect(unknown.body.error).toBe('ERR_INVALID_CREDENTIALS');
    });

    it('refuses with the expiry date when the company dueDate is past', async () => {
      const company = await seedCompany(t, { dueDate: '2026-01-15T12:00:00.000Z' });
      const user = await seedUser(t, company.id);
      const res = await t.request('POST', '/auth/login', { body: { email: user.email, password: user.password } });
      expect(res.status).toBe(402);
      expect(res.body.error).toBe('ERR_SUBSCRIPTION_EXPIRED');
      expect(res.body.message).toContain('15/01/2026');
      expect(res.body.dueDate).toBe('2026-01-15T12:00:00.000Z');
    });

    it('warns when fewer than 5 days remain', async () => {
      const company = await seedCompany(t, { dueDate: new Date(Date.now() + 2.5 * 86400_000).toISOString() });
      const user = await seedUser(t, company.id);
      const { body } = await loginAs(t, user);
      expect(body.subscription).toMatchObject({ daysLeft: 3, expiresSoon: true });
    });

    it('answers malformed JSON and wrong types with a 400 catalogue error', async () => {
      const bad = await t.request('POST', '/auth/login', { body: '{"email": ' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('ERR_INVALID_JSON');
      const types = await t.request('POST', '/auth/login', { body: { email: 42, password: ['x'] } });
      expect(types.status).toBe(400);
      expect(types.body.error).toBe('ERR_VALIDATION');
      expect(types.body.issues.map((i: { path: string }) => i.path)).toEqual(['email', 'password']);
    });
  });

  describe('tokens and sessions', () => {
    it('GET /auth/me answers the signed-in user; no token, a forged or an expired one are refused', async () => {
      const { user, userSession } = await seedTenant(t);
      const me = await t.request('GET', '/auth/me', { token: userSession.token });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: user.id, companyId: user.companyId, company: { id: user.companyId } });

      expect((await t.request('GET', '/auth/me')).body.error).toBe('ERR_SESSION_EXPIRED');
      const forged = await t.request('GET', '/auth/me', { token: `${userSession.token}x` });
      expect(forged.status).toBe(401);
      expect(forged.body.error).toBe('ERR_SESSION_EXPIRED');

      const sid = (await t.db.selectFrom('userSessions').select('id').where('userId', '=', user.id).where('revokedAt', 'is', null).executeTakeFirstOrThrow()).id;
      const expired = await signAccessToken({ sub: user.id, cid: user.companyId, sid }, t.deps.config.jwtSecret, -10);
      const res = await t.request('GET', '/auth/me', { token: expired });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_TOKEN_EXPIRED');
      // Expired but signed with another key: a forgery, refused as such, not offered a refresh.
      const forgedExpired = await signAccessToken({ sub: user.id, cid: user.companyId, sid }, 'not-the-server-secret', -10);
      const refused = await t.request('GET', '/auth/me', { token: forgedExpired });
      expect([refused.status, refused.body.error]).toEqual([401, 'ERR_SESSION_EXPIRED']);
    });

    it('rotates the refresh token on every use and refuses the spent one, ending the session', async () => {
      const { userSession } = await seedTenant(t);
      const first = await t.request('POST', '/auth/refresh_token', { cookie: userSession.cookie });
      expect(first.status).toBe(200);
      expect(typeof first.body.token).toBe('string');
      const rotated = refreshCookie(first.headers)!;
      expect(rotated).not.toBe(userSession.cookie);

      const reuse = await t.request('POST', '/auth/refresh_token', { cookie: userSession.cookie });
      expect(reuse.status).toBe(401);
      expect(reuse.body.error).toBe('ERR_SESSION_EXPIRED');
      // The reuse revoked the session: the rotated token and the new access token die with it.
      expect((await t.request('POST', '/auth/refresh_token', { cookie: rotated })).status).toBe(401);
      expect((await t.request('GET', '/auth/me', { token: first.body.token })).status).toBe(401);
    });

    it('stores refresh tokens hashed', async () => {
      const { userSession } = await seedTenant(t);
      const raw = userSession.cookie.slice('jrt='.length);
      const rows = await t.db.selectFrom('refreshTokens').select('tokenHash').execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.some((r) => r.tokenHash === raw)).toBe(false);
    });

    it('a new login of the same account revokes the other sessions, whose requests are told why', async () => {
      const { user, userSession } = await seedTenant(t);
      const second = await loginAs(t, user);
      // REST, a refresh, a push and a pull of the old session all say it was replaced (the web then
      // says "accessed on another computer", as the socket's auth event makes it say).
      const replaced = { error: 'ERR_SESSION_EXPIRED', reason: 'replaced' };
      const me = await t.request('GET', '/auth/me', { token: userSession.token });
      expect([me.status, me.body]).toEqual([401, expect.objectContaining(replaced)]);
      const refreshed = await t.request('POST', '/auth/refresh_token', { cookie: userSession.cookie });
      expect([refreshed.status, refreshed.body]).toEqual([401, expect.objectContaining(replaced)]);
      const pushed = await t.request('POST', '/sync/push', { token: userSession.token, body: { pushVersion: 1, clientGroupID: 'g', mutations: [] } });
      expect([pushed.status, pushed.body]).toEqual([401, expect.objectContaining(replaced)]);
      const pulled = await t.request('POST', '/sync/pull', { token: userSession.token, body: { pullVersion: 1, clientGroupID: 'g', cookie: null } });
      expect([pulled.status, pulled.body]).toEqual([401, expect.objectContaining(replaced)]);
      expect((await t.request('GET', '/auth/me', { token: second.token })).status).toBe(200);
      const revoked = await t.db.selectFrom('userSessions').select('revokedReason').where('userId', '=', user.id).where('revokedAt', 'is not', null).execute();
      expect(revoked.map((r) => r.revokedReason)).toEqual(['replaced']);
    });

    it('tells the open sockets of every ended session: logout, password reset, a reused refresh token', async () => {
      const revoked = vi.spyOn(t.deps.realtime, 'sessionRevoked');
      const sessionOf = async (userId: number) =>
        (await t.db.selectFrom('userSessions').select('id').where('userId', '=', userId).where('revokedAt', 'is', null).executeTakeFirstOrThrow()).id;
      try {
        const a = await seedTenant(t);
        const sidA = await sessionOf(a.user.id);
        await t.request('DELETE', '/auth/logout', { token: a.userSession.token, cookie: a.userSession.cookie });
        expect(revoked).toHaveBeenLastCalledWith(sidA, 'logout');

        const b = await seedTenant(t);
        const sidB = await sessionOf(b.user.id);
        await t.request('POST', '/auth/refresh_token', { cookie: b.userSession.cookie });
        await t.request('POST', '/auth/refresh_token', { cookie: b.userSession.cookie });
        expect(revoked).toHaveBeenLastCalledWith(sidB, 'refresh-reuse');

        const c = await seedTenant(t);
        const sidC = await sessionOf(c.user.id);
        await t.request('POST', `/forgetpassword/${c.user.email}`);
        const code = /code is (\d{6})/.exec(t.mails.findLast((m) => m.to === c.user.email)!.text)![1]!;
        expect((await t.request('POST', `/resetpasswords/${c.user.email}/${code}/NewPass123`)).status).toBe(200);
        expect(revoked).toHaveBeenLastCalledWith([sidC], 'password-reset');
      } finally {
        revoked.mockRestore();
      }
    });

    it('DELETE /auth/logout ends the session', async () => {
      const { userSession } = await seedTenant(t);
      const res = await t.request('DELETE', '/auth/logout', { token: userSession.token, cookie: userSession.cookie });
      expect(res.status).toBe(200);
      expect((await t.request('GET', '/auth/me', { token: userSession.token })).status).toBe(401);
      expect((await t.request('POST', '/auth/refresh_token', { cookie: userSession.cookie })).status).toBe(401);
    });
  });

  describe('password reset', () => {
    it('sends a code and sets a new password with it; the old password and sessions stop working', async () => {
      const { user, userSession } = await seedTenant(t);
      const unknown = await t.request('POST', '/forgetpassword/nobody@example.test');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toBe('ERR_USER_DONT_EXISTS');

      expect((await t.request('POST', `/forgetpassword/${user.email}`)).status).toBe(200);
      const mail = t.mails.findLast((m) => m.to === user.email)!;
      const code = /code is (\d{6})/.exec(mail.text)![1]!;

      const weak = await t.request('POST', `/resetpasswords/${user.email}/${code}/weakpass`);
      expect(weak.status).toBe(400);
      expect(weak.body.error).toBe('ERR_VALIDATION');
      const wrong = await t.request('POST', `/resetpasswords/${user.email}/000000x/NewPass123`);
      expect(wrong.body.error).toBe('ERR_INVALID_RESET_CODE');

      const ok = await t.request('POST', `/resetpasswords/${user.email}/${code}/NewPass123`);
      expect(ok.status).toBe(200);
      expect((await t.request('GET', '/auth/me', { token: userSession.token })).status).toBe(401);
      expect((await t.request('POST', '/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(401);
      expect((await t.request('POST', '/auth/login', { body: { email: user.email, password: 'NewPass123' } })).status).toBe(200);
      // A code works once.
      expect((await t.request('POST', `/resetpasswords/${user.email}/${code}/OtherPass123`)).body.error).toBe('ERR_INVALID_RESET_CODE');
    });

    it('refuses an expired code', async () => {
      const { user } = await seedTenant(t);
      await t.request('POST', `/forgetpassword/${user.email}`);
      const code = /code is (\d{6})/.exec(t.mails.findLast((m) => m.to === user.email)!.text)![1]!;
      await t.db.updateTable('passwordResets').set({ expiresAt: new Date(Date.now() - 1000).toISOString() }).where('userId', '=', user.id).execute();
      expect((await t.request('POST', `/resetpasswords/${user.email}/${code}/NewPass123`)).body.error).toBe('ERR_INVALID_RESET_CODE');
    });
  });
});

describe.each(DIALECTS)('rate limits on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: { perIp: 8, perAccount: 3, windowMs: 60_000 } });
  });
  afterAll(async () => t.close());

  it('limits login attempts per account and per IP', async () => {
    const { admin } = await seedTenant(t);
    const attempt = (email: string, ip: string) =>
      t.request('POST', '/auth/login', { body: { email, password: 'wrong' }, headers: { 'x-test-client-ip': ip } });
    for (let i = 0; i < 3; i++) expect((await attempt(admin.email, '10.0.0.1')).status).toBe(401);
    const limited = await attempt(admin.email, '10.0.0.2');
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('ERR_TOO_MANY_REQUESTS');
    // Even the right password waits out the window.
    const right = await t.request('POST', '/auth/login', { body: { email: admin.email, password: admin.password }, headers: { 'x-test-client-ip': '10.0.0.3' } });
    expect(right.status).toBe(429);

    for (let i = 0; i < 8; i++) await attempt(`someone${i}@example.test`, '10.0.0.9');
    expect((await attempt('fresh@example.test', '10.0.0.9')).status).toBe(429);
  });

  it('a team behind one address signs in as often as it needs: successful logins give their attempt back, failures still add up', async () => {
    const { company, admin } = await seedTenant(t);
    const office = '10.0.1.1';
    const login = (email: string, password: string) => t.request('POST', '/auth/login', { body: { email, password }, headers: { 'x-test-client-ip': office } });
    const team = await Promise.all(Array.from({ length: 12 }, (_, i) => seedUser(t, company.id, { email: `agent${i}-${dialect}@example.test`, password: 'Agent123!' })));
    // 12 agents and the admin twice: more than the 8 attempts an address has.
    for (const agent of team) expect((await login(agent.email, 'Agent123!')).status).toBe(200);
    expect((await login(admin.email, admin.password)).status).toBe(200);
    expect((await login(admin.email, admin.password)).status).toBe(200);
    // Guessing from the same address is still counted: 8 wrong passwords, then the address waits.
    for (let i = 0; i < 8; i++) expect((await login(`nobody${i}@example.test`, 'guess')).status).toBe(401);
    const limited = await login(team[0]!.email, 'Agent123!');
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('ERR_TOO_MANY_REQUESTS');
  });
});
