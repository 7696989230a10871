import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { loginAs, seedCompany, seedPlan, seedSuper, seedTenant, seedUser } from '../../../test/seed.ts';
import { bumpVersion } from '../../sync/version.ts';

let n = 0;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${++n}`;
const DAY = 86400_000;
const monday = { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' };

describe.each(DIALECTS)('companies on %s', (dialect) => {
  let t: TestApp;
  let superToken: string;
  let superCompanyId: number;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const s = await seedSuper(t);
    superToken = s.session.token;
    superCompanyId = s.company.id;
  });
  afterAll(async () => t.close());

  const settingsOf = async (companyId: number) =>
    Object.fromEntries((await t.db.selectFrom('settings').select(['key', 'value']).where('companyId', '=', companyId).execute()).map((s) => [s.key, s.value]));

  describe('POST /companies', () => {
    it('creates the company with its settings, a due date one period ahead, and a first admin who can log in', async () => {
      const plan = await seedPlan(t);
      const email = `${unique('owner').replace(' ', '-')}@acme.test`;
      const body = { name: 'Acme Ltda', email, phone: '(21) 3333-4444', planId: plan.id, recurrence: 'TRIMESTRAL', campaignsEnabled: false, document: '12.345.678/0001-90', addressCity: 'Rio', password: 'secret', adminName: 'Ana Admin' };
      const res = await t.request('POST', '/companies', { token: superToken, body });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'Acme Ltda', email, phone: '2133334444', planId: plan.id, plan: { id: plan.id, name: plan.name }, status: true,
        campaignsEnabled: false, recurrence: 'TRIMESTRAL', schedules: [], document: '12.345.678/0001-90', addressCity: 'Rio', addressStreet: null, trialExpiration: null,
      });
      expect(res.body.password).toBeUndefined();
      const daysAhead = (Date.parse(res.body.dueDate) - Date.now()) / DAY;
      expect(daysAhead).toBeGreaterThan(88);
      expect(daysAhead).toBeLessThan(93);
      expect(await settingsOf(res.body.id)).toMatchObject({ campaignsEnabled: 'false', userRating: 'disabled', scheduleType: 'disabled' });

      const login = await loginAs(t, { email, password: 'secret' });
      expect(login.body.user).toMatchObject({ name: 'Ana Admin', profile: 'admin', super: false, companyId: res.body.id });
    });

    it('refuses a bad recurrence, an unknown plan and a taken admin email, writing nothing', async () => {
      const plan = await seedPlan(t);
      const name = unique('Refused');
      const bad = await t.request('POST', '/companies', { token: superToken, body: { name, planId: plan.id, recurrence: 'SEMANAL' } });
      expect(bad.status).toBe(400);
      expect(bad.body.issues.map((i: { path: string }) => i.path)).toEqual(['recurrence']);
      const noPlan = await t.request('POST', '/companies', { token: superToken, body: { name, planId: 999999 } });
      expect(noPlan.status).toBe(404);
      expect(noPlan.body.error).toBe('ERR_NO_PLAN_FOUND');
      const { admin } = await seedTenant(t);
      const taken = await t.request('POST', '/companies', { token: superToken, body: { name, planId: plan.id, email: admin.email, password: 'secret' } });
      expect(taken.status).toBe(409);
      expect(taken.body.error).toBe('ERR_EMAIL_IN_USE');
      expect(await t.db.selectFrom('companies').select('id').where('name', '=', name).execute()).toEqual([]);
    });
  });

  describe('listing', () => {
    it('GET /companies pages 20 at a time with a search; GET /companies/list answers them all', async () => {
      const tag = unique('Listed').replace(' ', '');
      const plan = await seedPlan(t);
      for (let i = 0; i < 21; i++) await seedCompany(t, { name: `${tag} ${String(i).padStart(2, '0')}`, planId: plan.id });

      const first = await t.request('GET', `/companies?searchParam=${tag.toLowerCase()}&pageNumber=1`, { token: superToken });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ count: 21, hasMore: true });
      expect(first.body.companies).toHaveLength(20);
      expect(first.body.companies[0]).toMatchObject({ name: `${tag} 00`, plan: { id: plan.id, name: plan.name }, status: true, campaignsEnabled: true, schedules: [] });
      const second = await t.request('GET', `/companies?searchParam=${tag}&pageNumber=2`, { token: superToken });
      expect(second.body).toMatchObject({ count: 21, hasMore: false, companies: [{ name: `${tag} 20` }] });
      const none = await t.request('GET', '/companies?searchParam=%25nothing_like_this', { token: superToken });
      expect(none.body).toEqual({ companies: [], count: 0, hasMore: false });

      const all = await t.request('GET', '/companies/list', { token: superToken });
      expect(all.status).toBe(200);
      expect(all.body.filter((c: { name: string }) => c.name.startsWith(tag))).toHaveLength(21);
      expect(all.body.map((c: { id: number }) => c.id)).toContain(superCompanyId);
    });

    it('is for the super-admin only', async () => {
      const { adminSession, userSession } = await seedTenant(t);
      for (const token of [adminSession.token, userSession.token]) {
        for (const path of ['/companies', '/companies/list']) {
          const res = await t.request('GET', path, { token });
          expect(res.status).toBe(403);
          expect(res.body.error).toBe('ERR_NO_PERMISSION');
        }
      }
    });
  });

  describe('GET /companies/{id}', () => {
    it('answers the super-admin any company, and a company its own users, with settings', async () => {
      const { company, adminSession, userSession } = await seedTenant(t);
      for (const token of [superToken, adminSession.token, userSession.token]) {
        const res = await t.request('GET', `/companies/${company.id}`, { token });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ id: company.id, name: company.name, status: true, campaignsEnabled: true, recurrence: 'MENSAL' });
        expect(res.body.settings).toContainEqual({ key: 'campaignsEnabled', value: 'true' });
      }
    });

    it("answers 404 for another company's id, as for an unknown id", async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      for (const path of [`/companies/${b.company.id}`, '/companies/999999', '/companies/x']) {
        const res = await t.request('GET', path, { token: a.adminSession.token });
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('ERR_NO_COMPANY_FOUND');
      }
    });
  });

  describe('PUT /companies/{id}', () => {
    it('changes what is sent, campaignsEnabled included; an inactive company can no longer log in', async () => {
      const { company, plan, user } = await seedTenant(t);
      const other = await seedPlan(t);
      const res = await t.request('PUT', `/companies/${company.id}`, {
        token: superToken,
        body: { planId: other.id, recurrence: 'ANUAL', dueDate: '2030-05-10', campaignsEnabled: false, email: '', status: 'false' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: company.name, planId: other.id, plan: { name: other.name }, recurrence: 'ANUAL', dueDate: '2030-05-10T23:59:59.999Z', campaignsEnabled: false, email: null, status: false });
      expect((await settingsOf(company.id)).campaignsEnabled).toBe('false');
      expect(plan.id).not.toBe(other.id);
      const login = await t.request('POST', '/auth/login', { body: { email: user.email, password: user.password } });
      expect(login.body.error).toBe('ERR_COMPANY_INACTIVE');
    });

    it('deactivating a company ends its users\' sessions, saying why; a super-admin of it stays signed in', async () => {
      const { company, admin, adminSession, userSession } = await seedTenant(t);
      const superUser = await seedUser(t, company.id, { profile: 'admin', super: 1 });
      const superSession = await loginAs(t, superUser);
      expect((await t.request('PUT', `/companies/${company.id}`, { token: superToken, body: { status: false } })).status).toBe(200);
      const ended = { error: 'ERR_SESSION_EXPIRED', reason: 'company-inactive' };
      for (const session of [adminSession, userSession]) {
        const me = await t.request('GET', '/auth/me', { token: session.token });
        expect([me.status, me.body]).toEqual([401, expect.objectContaining(ended)]);
        const refreshed = await t.request('POST', '/auth/refresh_token', { cookie: session.cookie });
        expect([refreshed.status, refreshed.body]).toEqual([401, expect.objectContaining(ended)]);
      }
      expect((await t.request('GET', '/auth/me', { token: superSession.token })).status).toBe(200);
      // Saving it inactive again ends nothing more; active again, its users sign in anew.
      expect((await t.request('PUT', `/companies/${company.id}`, { token: superToken, body: { status: false, name: 'Renamed' } })).status).toBe(200);
      expect((await t.request('GET', '/auth/me', { token: superSession.token })).status).toBe(200);
      expect((await t.request('PUT', `/companies/${company.id}`, { token: superToken, body: { status: true } })).status).toBe(200);
      expect((await t.request('GET', '/auth/me', { token: adminSession.token })).status).toBe(401);
      expect((await t.request('GET', '/auth/me', { token: (await loginAs(t, admin)).token })).status).toBe(200);
    });

    it('refuses an unknown plan, an unknown company and anyone but the super-admin', async () => {
      const { company, adminSession } = await seedTenant(t);
      expect((await t.request('PUT', `/companies/${company.id}`, { token: superToken, body: { planId: 999999 } })).body.error).toBe('ERR_NO_PLAN_FOUND');
      expect((await t.request('PUT', '/companies/999999', { token: superToken, body: { name: 'Ghost' } })).body.error).toBe('ERR_NO_COMPANY_FOUND');
      const own = await t.request('PUT', `/companies/${company.id}`, { token: adminSession.token, body: { dueDate: '2099-01-01' } });
      expect(own.status).toBe(403);
      expect(own.body.error).toBe('ERR_NO_PERMISSION');
      expect((await t.request('GET', `/companies/${company.id}`, { token: superToken })).body.dueDate).toBe(company.dueDate);
    });
  });

  describe('DELETE /companies/{id}', () => {
    it("deletes the company and everything it owns; its users can no longer log in", async () => {
      const { company, admin } = await seedTenant(t);
      const res = await t.request('DELETE', `/companies/${company.id}`, { token: superToken });
      expect(res.status).toBe(200);
      expect((await t.request('GET', `/companies/${company.id}`, { token: superToken })).status).toBe(404);
      expect(await t.db.selectFrom('users').select('id').where('companyId', '=', company.id).execute()).toEqual([]);
      expect(await t.db.selectFrom('settings').select('id').where('companyId', '=', company.id).execute()).toEqual([]);
      expect((await t.request('POST', '/auth/login', { body: { email: admin.email, password: admin.password } })).body.error).toBe('ERR_INVALID_CREDENTIALS');
    });

    it("refuses the super-admin's own company, an unknown id and a non-super", async () => {
      const own = await t.request('DELETE', `/companies/${superCompanyId}`, { token: superToken });
      expect(own.status).toBe(403);
      expect(own.body.error).toBe('ERR_NO_PERMISSION');
      expect((await t.request('GET', `/companies/${superCompanyId}`, { token: superToken })).status).toBe(200);
      expect((await t.request('DELETE', '/companies/999999', { token: superToken })).body.error).toBe('ERR_NO_COMPANY_FOUND');
      const { company, adminSession } = await seedTenant(t);
      expect((await t.request('DELETE', `/companies/${company.id}`, { token: adminSession.token })).status).toBe(403);
      expect((await t.request('GET', `/companies/${company.id}`, { token: superToken })).status).toBe(200);
    });
  });

  describe('PUT /companies/{id}/schedules', () => {
    it('lets an admin of the company and the super-admin set business hours', async () => {
      const { company, adminSession } = await seedTenant(t);
      const friday = { weekday: 'Sexta-feira', weekdayEn: 'friday', startTime: '09:00', endTime: '17:30' };
      const res = await t.request('PUT', `/companies/${company.id}/schedules`, { token: adminSession.token, body: { schedules: [monday, friday] } });
      expect(res.status).toBe(200);
      expect(res.body.schedules).toEqual([monday, friday]);
      const bySuper = await t.request('PUT', `/companies/${company.id}/schedules`, { token: superToken, body: { schedules: [monday] } });
      expect(bySuper.body.schedules).toEqual([monday]);
      expect((await t.request('GET', `/companies/${company.id}`, { token: adminSession.token })).body.schedules).toEqual([monday]);
    });

    it('refuses times that are not HH:mm, an attendant, and another company (404, unchanged)', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      for (const endTime of ['24:00', '8:00', '18h']) {
        const res = await t.request('PUT', `/companies/${a.company.id}/schedules`, { token: a.adminSession.token, body: { schedules: [{ ...monday, endTime }] } });
        expect(res.status).toBe(400);
        expect(res.body.issues.map((i: { path: string }) => i.path)).toEqual(['schedules.0.endTime']);
      }
      const attendant = await t.request('PUT', `/companies/${a.company.id}/schedules`, { token: a.userSession.token, body: { schedules: [monday] } });
      expect(attendant.status).toBe(403);
      expect(attendant.body.error).toBe('ERR_NO_PERMISSION');
      const cross = await t.request('PUT', `/companies/${b.company.id}/schedules`, { token: a.adminSession.token, body: { schedules: [monday] } });
      expect(cross.status).toBe(404);
      expect(cross.body.error).toBe('ERR_NO_COMPANY_FOUND');
      expect((await t.request('GET', `/companies/${b.company.id}`, { token: superToken })).body.schedules).toEqual([]);
      expect((await t.request('GET', `/companies/${a.company.id}`, { token: superToken })).body.schedules).toEqual([]);
    });
  });

  describe('POST /companies/{id}/renew', () => {
    const renew = (id: number, token = superToken) => t.request('POST', `/companies/${id}/renew`, { token });
    const companyDue = async (dueDate: string, recurrence: string) => {
      const company = await seedCompany(t, { dueDate });
      await t.db.updateTable('companies').set({ recurrence, ...bumpVersion() }).where('id', '=', company.id).execute();
      return company;
    };

    it('adds the recurrence months to a due date still ahead, keeping to month ends', async () => {
      const cases: [string, string, string][] = [
        ['2030-01-31T12:00:00.000Z', 'MENSAL', '2030-02-28T12:00:00.000Z'],
        ['2030-01-15T12:00:00.000Z', 'BIMESTRAL', '2030-03-15T12:00:00.000Z'],
        ['2030-01-15T12:00:00.000Z', 'TRIMESTRAL', '2030-04-15T12:00:00.000Z'],
        ['2030-08-31T12:00:00.000Z', 'SEMESTRAL', '2031-02-28T12:00:00.000Z'],
        ['2031-02-28T12:00:00.000Z', 'ANUAL', '2032-02-28T12:00:00.000Z'],
      ];
      for (const [due, recurrence, expected] of cases) {
        const company = await companyDue(due, recurrence);
        const res = await renew(company.id);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ id: company.id, recurrence, dueDate: expected });
      }
    });

    it('counts from today when the due date has passed, so the company can log in again', async () => {
      const company = await companyDue(new Date(Date.now() - 40 * DAY).toISOString(), 'MENSAL');
      const user = await seedUser(t, company.id);
      expect((await t.request('POST', '/auth/login', { body: { email: user.email, password: user.password } })).body.error).toBe('ERR_SUBSCRIPTION_EXPIRED');
      const res = await renew(company.id);
      const daysAhead = (Date.parse(res.body.dueDate) - Date.now()) / DAY;
      expect(daysAhead).toBeGreaterThan(27);
      expect(daysAhead).toBeLessThan(32);
      expect((await t.request('POST', '/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(200);
    });

    it('is for the super-admin only; 404 for an unknown company', async () => {
      const { company, adminSession } = await seedTenant(t);
      const res = await renew(company.id, adminSession.token);
      expect(res.status).toBe(403);
      expect((await t.request('GET', `/companies/${company.id}`, { token: superToken })).body.dueDate).toBe(company.dueDate);
      expect((await renew(999999)).body.error).toBe('ERR_NO_COMPANY_FOUND');
    });
  });
});
