import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedSuper, seedTenant } from '../../../test/seed.ts';

// A company's row and its plan are synced (company/<id>): the super-admin's changes poke the users
// who see them once the write commits, and a refused change pokes nobody.
describe.each(DIALECTS)('company and plan writes notify clients on %s', (dialect) => {
  let t: TestApp;
  let superToken: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    superToken = (await seedSuper(t)).session.token;
  });
  afterAll(async () => t.close());

  it('pokes the company after an update or a renewal, and nobody after a refused update', async () => {
    const { company } = await seedTenant(t);
    const poke = vi.spyOn(t.deps.realtime, 'pokeCompany');
    try {
      expect((await t.request('PUT', `/companies/${company.id}`, { token: superToken, body: { phone: '21999990000' } })).status).toBe(200);
      expect(poke).toHaveBeenCalledWith(company.id);

      poke.mockClear();
      expect((await t.request('POST', `/companies/${company.id}/renew`, { token: superToken })).status).toBe(200);
      expect(poke).toHaveBeenCalledWith(company.id);

      poke.mockClear();
      const refused = await t.request('PUT', `/companies/${company.id}`, { token: superToken, body: { phone: '21888880000', planId: 99999999 } });
      expect(refused.body.error).toBe('ERR_NO_PLAN_FOUND');
      expect(poke).not.toHaveBeenCalled();
      expect((await t.db.selectFrom('companies').select('phone').where('id', '=', company.id).executeTakeFirstOrThrow()).phone).toBe('21999990000');
    } finally {
      poke.mockRestore();
    }
  });

  it('pokes every company after a plan change, and nobody when the change is refused', async () => {
    const { plan } = await seedTenant(t);
    const other = await seedTenant(t);
    const pokeAll = vi.spyOn(t.deps.realtime, 'pokeAll');
    try {
      expect((await t.request('PUT', `/plans/${plan.id}`, { token: superToken, body: { users: 3 } })).status).toBe(200);
      expect(pokeAll).toHaveBeenCalledTimes(1);

      pokeAll.mockClear();
      const dup = await t.request('PUT', `/plans/${plan.id}`, { token: superToken, body: { name: other.plan.name, users: 4 } });
      expect(dup.body.error).toBe('ERR_PLAN_DUPLICATED');
      expect(pokeAll).not.toHaveBeenCalled();
      expect((await t.db.selectFrom('plans').select('users').where('id', '=', plan.id).executeTakeFirstOrThrow()).users).toBe(3);
    } finally {
      pokeAll.mockRestore();
    }
  });
});
