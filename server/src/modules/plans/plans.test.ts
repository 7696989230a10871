import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedCompany, seedPlan, seedSuper, seedTenant } from '../../../test/seed.ts';
import { bumpVersion } from '../../sync/version.ts';

let n = 0;
const uniqueName = (prefix: string) => `${prefix} ${Date.now().toString(36)}${++n}`;
const planBody = (values: Record<string, unknown> = {}) => ({ name: uniqueName('Plan'), users: 5, connections: 2, queues: 3, value: 49.9, ...values });

describe.each(DIALECTS)('plans on %s', (dialect) => {
  let t: TestApp;
  let superToken: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    superToken = (await seedSuper(t)).session.token;
  });
  afterAll(async () => t.close());

  describe('POST /plans', () => {
    it('creates a plan with every switch on by default and the value in reais', async () => {
      const body = planBody();
      const res = await t.request('POST', '/plans', { token: superToken, body });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        name: body.name,
        users: 5,
        connections: 2,
        queues: 3,
        value: 49.9,
        useCampaigns: true,
        useSchedules: true,
        useInternalChat: true,
        useExternalApi: true,
        useKanban: true,
        useOpenAi: true,
        useIntegrations: true,
        isPublic: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const row = await t.db.selectFrom('plans').select(['valueCents', 'useKanban']).where('id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ valueCents: 4990, useKanban: 1 });
    });

    it('takes the plan form switch names', async () => {
      const res = await t.request('POST', '/plans', { token: superToken, body: planBody({ kanban: false, campaigns: false, openAi: false, isPublic: false }) });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ useKanban: false, useCampaigns: false, useOpenAi: false, useSchedules: true, isPublic: false });
    });

    it('refuses a duplicate name with ERR_PLAN_DUPLICATED and the spec message', async () => {
      const body = planBody();
      expect((await t.request('POST', '/plans', { token: superToken, body })).status).toBe(201);
      const dup = await t.request('POST', '/plans', { token: superToken, body: { ...body, users: 9 } });
      expect(dup.status).toBe(409);
      expect(dup.body).toEqual({ error: 'ERR_PLAN_DUPLICATED', message: 'Could not save the plan: check for a duplicate name or missing fields.' });
      expect(await t.db.selectFrom('plans').select('id').where('name', '=', body.name).execute()).toHaveLength(1);
    });

    it('refuses missing fields and bad numbers with ERR_VALIDATION', async () => {
      const res = await t.request('POST', '/plans', { token: superToken, body: { name: '', users: -1 } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.issues.map((i: { path: string }) => i.path)).toEqual(['name', 'users', 'connections', 'queues', 'value']);
    });

    it('is for the super-admin only', async () => {
      const { adminSession, userSession } = await seedTenant(t);
      for (const token of [adminSession.token, userSession.token]) {
        const res = await t.request('POST', '/plans', { token, body: planBody() });
        expect(res.status).toBe(403);
        expect(res.body.error).toBe('ERR_NO_PERMISSION');
      }
      expect((await t.request('POST', '/plans', { body: planBody() })).status).toBe(401);
    });
  });

  describe('reading plans', () => {
    it('GET /plans/list answers the public plans without a token, ignoring extra params', async () => {
      const open = await seedPlan(t, { name: uniqueName('Open') });
      const hidden = await t.db.insertInto('plans').values({ name: uniqueName('Hidden'), isPublic: 0 }).returning('id').executeTakeFirstOrThrow();
      const res = await t.request('GET', '/plans/list?companyId=1&foo=bar');
      expect(res.status).toBe(200);
      const ids = res.body.map((p: { id: number }) => p.id);
      expect(ids).toContain(open.id);
      expect(ids).not.toContain(hidden.id);
      expect(res.body.find((p: { id: number }) => p.id === open.id)).toMatchObject({ name: open.name, value: 49, useKanban: true, isPublic: true });
    });

    it('GET /plans/all: everything for the super-admin; public plans and their own for a company', async () => {
      const { plan, userSession } = await seedTenant(t);
      await t.db.updateTable('plans').set({ isPublic: 0, ...bumpVersion() }).where('id', '=', plan.id).execute();
      const other = await t.db.insertInto('plans').values({ name: uniqueName('Private') , isPublic: 0 }).returning('id').executeTakeFirstOrThrow();

      const all = await t.request('GET', '/plans/all', { token: superToken });
      expect(all.status).toBe(200);
      expect(all.body.map((p: { id: number }) => p.id)).toEqual(expect.arrayContaining([plan.id, other.id]));

      const mine = await t.request('GET', '/plans/all?listPublic=false', { token: userSession.token });
      expect(mine.status).toBe(200);
      const ids = mine.body.map((p: { id: number }) => p.id);
      expect(ids).toContain(plan.id);
      expect(ids).not.toContain(other.id);
      expect(mine.body.every((p: { isPublic: boolean; id: number }) => p.isPublic || p.id === plan.id)).toBe(true);
      expect((await t.request('GET', '/plans/all')).status).toBe(401);
    });

    it('GET /plans/{id}: a plan the reader may see, 404 ERR_NO_PLAN_FOUND otherwise', async () => {
      const { userSession } = await seedTenant(t);
      const open = await seedPlan(t);
      const hidden = await t.db.insertInto('plans').values({ name: uniqueName('Hidden'), isPublic: 0 }).returning('id').executeTakeFirstOrThrow();
      expect((await t.request('GET', `/plans/${open.id}`, { token: userSession.token })).body).toMatchObject({ id: open.id, name: open.name });
      expect((await t.request('GET', `/plans/${hidden.id}`, { token: superToken })).body).toMatchObject({ id: hidden.id, isPublic: false });
      for (const path of [`/plans/${hidden.id}`, '/plans/999999', '/plans/abc']) {
        const res = await t.request('GET', path, { token: path.endsWith('999999') ? superToken : userSession.token });
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('ERR_NO_PLAN_FOUND');
      }
    });
  });

  describe('PUT /plans/{id}', () => {
    it('changes only what is sent', async () => {
      const created = (await t.request('POST', '/plans', { token: superToken, body: planBody() })).body;
      const res = await t.request('PUT', `/plans/${created.id}`, { token: superToken, body: { ...created, users: 20, value: '99,90', integrations: false } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: created.id, name: created.name, users: 20, connections: 2, value: 99.9, useIntegrations: false, useKanban: true });
      const again = await t.request('PUT', `/plans/${created.id}`, { token: superToken, body: { useKanban: false } });
      expect(again.body).toMatchObject({ users: 20, useKanban: false, useIntegrations: false });
    });

    it('refuses a name another plan has, an unknown id and a non-super', async () => {
      const a = (await t.request('POST', '/plans', { token: superToken, body: planBody() })).body;
      const b = (await t.request('POST', '/plans', { token: superToken, body: planBody() })).body;
      const dup = await t.request('PUT', `/plans/${b.id}`, { token: superToken, body: { name: a.name } });
      expect(dup.status).toBe(409);
      expect(dup.body.error).toBe('ERR_PLAN_DUPLICATED');
      expect((await t.request('GET', `/plans/${b.id}`, { token: superToken })).body.name).toBe(b.name);

      const unknown = await t.request('PUT', '/plans/999999', { token: superToken, body: { users: 1 } });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toBe('ERR_NO_PLAN_FOUND');

      const { adminSession } = await seedTenant(t);
      expect((await t.request('PUT', `/plans/${a.id}`, { token: adminSession.token, body: { users: 1 } })).status).toBe(403);
      expect((await t.request('GET', `/plans/${a.id}`, { token: superToken })).body.users).toBe(5);
    });
  });

  describe('DELETE /plans/{id}', () => {
    it('deletes an unused plan; refuses one a company is on; 404 for an unknown id', async () => {
      const unused = (await t.request('POST', '/plans', { token: superToken, body: planBody() })).body;
      const res = await t.request('DELETE', `/plans/${unused.id}`, { token: superToken });
      expect(res.status).toBe(200);
      expect((await t.request('GET', `/plans/${unused.id}`, { token: superToken })).status).toBe(404);

      const used = await seedPlan(t);
      await seedCompany(t, { planId: used.id });
      const inUse = await t.request('DELETE', `/plans/${used.id}`, { token: superToken });
      expect(inUse.status).toBe(409);
      expect(inUse.body.error).toBe('ERR_PLAN_IN_USE');
      expect((await t.request('GET', `/plans/${used.id}`, { token: superToken })).status).toBe(200);

      expect((await t.request('DELETE', '/plans/999999', { token: superToken })).body.error).toBe('ERR_NO_PLAN_FOUND');
      const { adminSession } = await seedTenant(t);
      expect((await t.request('DELETE', `/plans/${used.id}`, { token: adminSession.token })).status).toBe(403);
    });
  });

  describe('GET /companies/listPlan/{companyId}', () => {
    it("answers the company's plan with its flags to its users and to the super-admin", async () => {
      const { company, plan, userSession } = await seedTenant(t, { useKanban: 0, useOpenAi: 0 });
      const expected = { id: plan.id, name: plan.name, useKanban: false, useOpenAi: false, useCampaigns: true, useSchedules: true, useInternalChat: true, useExternalApi: true, useIntegrations: true, value: 49 };
      const res = await t.request('GET', `/companies/listPlan/${company.id}`, { token: userSession.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject(expected);
      expect((await t.request('GET', `/companies/listPlan/${company.id}`, { token: superToken })).body).toMatchObject(expected);
    });

    it("answers 404 ERR_NO_COMPANY_FOUND for another company's id, as for an unknown one", async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      for (const id of [b.company.id, 999999]) {
        const res = await t.request('GET', `/companies/listPlan/${id}`, { token: a.adminSession.token });
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ error: 'ERR_NO_COMPANY_FOUND' });
      }
      expect((await t.request('GET', '/companies/listPlan/999999', { token: superToken })).body.error).toBe('ERR_NO_COMPANY_FOUND');
    });
  });
});
