import { DEFAULT_SETTINGS } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedPlan, seedTenant } from '../../../test/seed.ts';

let n = 0;
const uniqueEmail = () => `owner-${Date.now().toString(36)}${++n}@signup.test`;
const DAY = 86400_000;

describe.each(DIALECTS)('sign-up on %s', (dialect) => {
  let t: TestApp;
  let planId: number;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    planId = (await seedPlan(t)).id;
  });
  afterAll(async () => t.close());

  const form = (values: Record<string, unknown> = {}) => ({
    name: 'Padaria Pão Quente',
    email: uniqueEmail(),
    phone: '(11) 98765-4321',
    password: 'secret',
    planId,
    // What the sign-up page sends; the server decides these itself.
    recurrence: 'MENSAL',
    dueDate: '2099-12-31',
    status: false,
    campaignsEnabled: false,
    ...values,
  });
  const signUp = (body: unknown, query = '') => t.request('POST', `/companies/cadastro${query}`, { body });
  const companiesNamed = (name: string) => t.db.selectFrom('companies').select('id').where('name', '=', name).execute();

  it('creates the company on a 3-day trial, its default settings and its admin, who then logs in', async () => {
    const body = form();
    const res = await signUp(body, '?companyId=42');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Padaria Pão Quente',
      email: body.email,
      phone: '11987654321',
      planId,
      plan: { id: planId },
      status: true,
      campaignsEnabled: true,
      recurrence: 'MENSAL',
    });
    const daysAhead = (Date.parse(res.body.dueDate) - Date.now()) / DAY;
    expect(daysAhead).toBeGreaterThan(2.99);
    expect(daysAhead).toBeLessThanOrEqual(3);
    expect(res.body.trialExpiration).toBe(res.body.dueDate);
    const defaults = Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({ key, value }));
    expect(res.body.settings).toHaveLength(defaults.length);
    expect(res.body.settings).toEqual(expect.arrayContaining(defaults));

    const login = await t.request('POST', '/auth/login', { body: { email: body.email, password: 'secret' } });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ name: 'Padaria Pão Quente', email: body.email, profile: 'admin', super: false, companyId: res.body.id });
    expect(login.body.user.company.settings).toContainEqual({ key: 'campaignsEnabled', value: 'true' });
    expect(login.body.subscription).toMatchObject({ daysLeft: 3, expiresSoon: true });
  });

  it('accepts a phone as bare digits or none at all', async () => {
    expect((await signUp(form({ phone: '1133334444' }))).body.phone).toBe('1133334444');
    expect((await signUp(form({ phone: undefined }))).body.phone).toBeNull();
  });

  it('refuses an email already in use anywhere, writing nothing', async () => {
    const { admin } = await seedTenant(t);
    const name = `Copycat ${Date.now()}`;
    const res = await signUp(form({ name, email: admin.email.toUpperCase() }));
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_EMAIL_IN_USE');
    expect(await companiesNamed(name)).toEqual([]);
  });

  it('lets one of two racing sign-ups with one email win, and leaves no trace of the other', async () => {
    const email = uniqueEmail();
    const names = [`Racer A ${Date.now()}`, `Racer B ${Date.now()}`];
    const results = await Promise.all(names.map((name) => signUp(form({ name, email }))));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const created = (await companiesNamed(names[0]!)).length + (await companiesNamed(names[1]!)).length;
    expect(created).toBe(1);
  });

  it.each([
    ['name', { name: 'A' }],
    ['name', { name: 'x'.repeat(51) }],
    ['email', { email: 'not-an-email' }],
    ['email', { email: undefined }],
    ['password', { password: '1234' }],
    ['password', { password: 'x'.repeat(51) }],
    ['phone', { phone: '(11) 98765-43210' }],
    ['phone', { phone: '12345' }],
    ['planId', { planId: undefined }],
    ['recurrence', { recurrence: 'ANUAL' }],
  ])('refuses a bad %s (%j) with ERR_VALIDATION', async (field, values) => {
    const name = `Invalid ${Date.now()}${++n}`;
    const res = await signUp(form({ name, ...values, ...(field === 'name' ? {} : { name }) }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.issues.map((i: { path: string }) => i.path)).toEqual([field]);
    expect(await companiesNamed(name)).toEqual([]);
  });

  it('refuses an unknown plan and a private one as not found', async () => {
    const hidden = await t.db.insertInto('plans').values({ name: `Private ${Date.now()}`, isPublic: 0 }).returning('id').executeTakeFirstOrThrow();
    for (const id of [hidden.id, 999999]) {
      const name = `Planless ${Date.now()}${++n}`;
      const res = await signUp(form({ name, planId: id }));
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_PLAN_FOUND');
      expect(await companiesNamed(name)).toEqual([]);
    }
  });

  it('answers malformed JSON with a 400, never a 500', async () => {
    const res = await signUp('{"name": ');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_INVALID_JSON');
  });
});

describe.each(DIALECTS)('sign-up rate limit on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: { perIp: 3, perAccount: 100, windowMs: 60_000 } });
  });
  afterAll(async () => t.close());

  it('limits sign-ups per IP', async () => {
    const attempt = (ip: string) => t.request('POST', '/companies/cadastro', { body: { name: 'x' }, headers: { 'x-test-client-ip': ip } });
    for (let i = 0; i < 3; i++) expect((await attempt('10.1.0.1')).status).toBe(400);
    const limited = await attempt('10.1.0.1');
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('ERR_TOO_MANY_REQUESTS');
    expect((await attempt('10.1.0.2')).status).toBe(400);
  });
});
