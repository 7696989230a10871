import { DEFAULT_SETTINGS, SETTING_KEYS, SETTING_VALUES } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedSuper, seedTenant } from '../../../test/seed.ts';

describe.each(DIALECTS)('settings on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const rowOf = (companyId: number, key: string) =>
    t.db.selectFrom('settings').selectAll().where('companyId', '=', companyId).where('key', '=', key).executeTakeFirst();

  it('GET /settings lists the company key/value pairs for any signed-in user', async () => {
    const { userSession } = await seedTenant(t);
    const res = await t.request('GET', '/settings', { token: userSession.token });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(SETTING_KEYS.length);
    expect(res.body).toContainEqual({ key: 'campaignsEnabled', value: 'true' });
    expect(res.body).toContainEqual({ key: 'scheduleType', value: DEFAULT_SETTINGS.scheduleType });
    expect(Object.keys(res.body[0]).sort()).toEqual(['key', 'value']);
    expect((await t.request('GET', '/settings/', { token: userSession.token })).body).toEqual(res.body);
    expect((await t.request('GET', '/settings')).status).toBe(401);
  });

  it('PUT /settings/:key stores an allowed value, bumps the version and returns {key, value}', async () => {
    const { company, adminSession, userSession } = await seedTenant(t);
    const before = (await rowOf(company.id, 'scheduleType'))!;
    const res = await t.request('PUT', '/settings/scheduleType', { token: adminSession.token, body: { key: 'scheduleType', value: 'queue' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ key: 'scheduleType', value: 'queue' });
    const after = (await rowOf(company.id, 'scheduleType'))!;
    expect(after).toMatchObject({ id: before.id, value: 'queue', version: before.version + 1 });
    expect(after.updatedAt >= before.updatedAt).toBe(true);
    // The body key is optional; every user sees the change.
    expect((await t.request('PUT', '/settings/userRating', { token: adminSession.token, body: { value: 'enabled' } })).status).toBe(200);
    const list = await t.request('GET', '/settings', { token: userSession.token });
    expect(list.body).toContainEqual({ key: 'scheduleType', value: 'queue' });
    expect(list.body).toContainEqual({ key: 'userRating', value: 'enabled' });
  });

  it('accepts every allowed value of every key and refuses the others', async () => {
    const { adminSession } = await seedTenant(t);
    for (const key of SETTING_KEYS) {
      for (const value of SETTING_VALUES[key]) {
        const ok = await t.request('PUT', `/settings/${key}`, { token: adminSession.token, body: { value } });
        expect(ok.status, `${key}=${value}`).toBe(200);
      }
      const bad = await t.request('PUT', `/settings/${key}`, { token: adminSession.token, body: { value: 'sometimes' } });
      expect(bad.status, key).toBe(400);
      expect(bad.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'value' }] });
    }
    const missing = await t.request('PUT', '/settings/call', { token: adminSession.token, body: {} });
    expect(missing.body.error).toBe('ERR_VALIDATION');
    const mismatch = await t.request('PUT', '/settings/call', { token: adminSession.token, body: { key: 'userRating', value: 'enabled' } });
    expect(mismatch.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'key' }] });
    const notJson = await t.request('PUT', '/settings/call', { token: adminSession.token, body: '{value' });
    expect(notJson.body.error).toBe('ERR_INVALID_JSON');
  });

  it('answers 404 ERR_NO_SETTING_FOUND for an unknown key', async () => {
    const { adminSession } = await seedTenant(t);
    for (const key of ['nope', 'constructor', 'USERRATING']) {
      const res = await t.request('PUT', `/settings/${key}`, { token: adminSession.token, body: { value: 'enabled' } });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_SETTING_FOUND');
    }
  });

  it('creates the row of a key the company never had', async () => {
    const { company, adminSession } = await seedTenant(t);
    await t.db.deleteFrom('settings').where('companyId', '=', company.id).where('key', '=', 'asaas').execute();
    expect((await t.request('GET', '/settings', { token: adminSession.token })).body).toContainEqual({ key: 'asaas', value: DEFAULT_SETTINGS.asaas });
    const res = await t.request('PUT', '/settings/asaas', { token: adminSession.token, body: { value: 'enabled' } });
    expect(res.status).toBe(200);
    expect(await rowOf(company.id, 'asaas')).toMatchObject({ value: 'enabled', version: 1 });
  });

  it('is for admins: a plain user gets 403 and nothing changes', async () => {
    const { company, userSession } = await seedTenant(t);
    const res = await t.request('PUT', '/settings/userRating', { token: userSession.token, body: { value: 'enabled' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
    expect((await rowOf(company.id, 'userRating'))!.value).toBe(DEFAULT_SETTINGS.userRating);
  });

  it('only the super-admin may read or write another company settings', async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    // Another company reads as unknown (auth/company-scope.ts), and nothing lands in the caller's own.
    const read = await t.request('GET', `/settings?companyId=${b.company.id}`, { token: a.adminSession.token });
    expect(read.status).toBe(404);
    expect(read.body.error).toBe('ERR_NO_COMPANY_FOUND');
    const write = await t.request('PUT', `/settings/userRating?companyId=${b.company.id}`, { token: a.adminSession.token, body: { value: 'enabled' } });
    expect(write.status).toBe(404);
    expect((await rowOf(b.company.id, 'userRating'))!.value).toBe('disabled');
    expect((await rowOf(a.company.id, 'userRating'))!.value).toBe('disabled');
    // Naming one's own company is fine.
    expect((await t.request('GET', `/settings?companyId=${a.company.id}`, { token: a.userSession.token })).status).toBe(200);

    const { session } = await seedSuper(t);
    const bySuper = await t.request('PUT', `/settings/userRating?companyId=${b.company.id}`, { token: session.token, body: { value: 'enabled' } });
    expect(bySuper.status).toBe(200);
    expect((await rowOf(b.company.id, 'userRating'))!.value).toBe('enabled');
    const readBySuper = await t.request('GET', `/settings?companyId=${b.company.id}`, { token: session.token });
    expect(readBySuper.body).toContainEqual({ key: 'userRating', value: 'enabled' });
    const unknown = await t.request('GET', '/settings?companyId=987654', { token: session.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('ERR_NO_COMPANY_FOUND');
    expect((await t.request('GET', '/settings?companyId=abc', { token: session.token })).body.error).toBe('ERR_VALIDATION');
  });
});
