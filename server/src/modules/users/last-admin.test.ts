// A company is never left without an admin (issue 13): demoting or deleting its last admin is
// refused with ERR_LAST_ADMIN and changes nothing, also when two admins demote each other at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { loginAs, seedSuper, seedTenant, seedTicket, seedUser } from '../../../test/seed.ts';
import { tenant } from '../../db/tenant.ts';
import { write } from '../../db/write.ts';
import { updateUser } from './service.ts';

describe.each(DIALECTS)('the last admin of a company on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const admins = async (companyId: number) =>
    (await tenant(t.db, companyId).selectFrom('users').select('users.id').where('users.profile', '=', 'admin').orderBy('users.id').execute()).map((r) => r.id);
  const expectLastAdmin = (res: { status: number; body: { error?: string; message?: string } }) => {
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'ERR_LAST_ADMIN', message: 'The company must keep at least one admin.' });
  };

  it('refuses to demote the only admin, by themselves or by the super-admin', async () => {
    const { company, admin, adminSession } = await seedTenant(t);
    expectLastAdmin(await t.request('PUT', `/users/${admin.id}`, { token: adminSession.token, body: { profile: 'user' } }));
    expectLastAdmin(await t.request('PUT', `/users/${admin.id}`, { token: adminSession.token, body: { name: 'Still Admin', profile: 'supervisor' } }));
    const platform = await seedSuper(t);
    expectLastAdmin(await t.request('PUT', `/users/${admin.id}?companyId=${company.id}`, { token: platform.session.token, body: { profile: 'user' } }));
    expect(await admins(company.id)).toEqual([admin.id]);
    const row = await tenant(t.db, company.id).selectFrom('users').select(['users.name', 'users.profile']).where('users.id', '=', admin.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: admin.name, profile: 'admin' });
    // Sending the profile it already has is no demotion.
    expect((await t.request('PUT', `/users/${admin.id}`, { token: adminSession.token, body: { name: 'Renamed Admin', profile: 'admin' } })).status).toBe(200);
  });

  it('refuses to delete the only admin, and allows it once another admin exists', async () => {
    const { company, admin } = await seedTenant(t);
    const platform = await seedSuper(t);
    const ticket = await seedTicket(t, company.id, { userId: admin.id });
    expectLastAdmin(await t.request('DELETE', `/users/${admin.id}?companyId=${company.id}`, { token: platform.session.token }));
    expect(await admins(company.id)).toEqual([admin.id]);
    // Refused, the delete let go of nothing: the admin's ticket is still theirs, at its version.
    expect(await tenant(t.db, company.id).selectFrom('tickets').select(['tickets.userId', 'tickets.version']).where('tickets.id', '=', ticket.id).executeTakeFirstOrThrow()).toEqual({ userId: admin.id, version: ticket.version });

    const second = await seedUser(t, company.id, { profile: 'admin' });
    const res = await t.request('DELETE', `/users/${admin.id}?companyId=${company.id}`, { token: platform.session.token });
    expect(res.status).toBe(200);
    expect(await admins(company.id)).toEqual([second.id]);
    // Demoting an attendant never needs another admin.
    const attendant = await seedUser(t, company.id, { profile: 'supervisor' });
    expect((await t.request('PUT', `/users/${attendant.id}?companyId=${company.id}`, { token: platform.session.token, body: { profile: 'user' } })).status).toBe(200);
  });

  it('lets one of two admins demote the other, then refuses the last one', async () => {
    const { company, admin, adminSession } = await seedTenant(t);
    const other = await seedUser(t, company.id, { profile: 'admin' });
    expect((await t.request('PUT', `/users/${other.id}`, { token: adminSession.token, body: { profile: 'user' } })).status).toBe(200);
    expectLastAdmin(await t.request('PUT', `/users/${admin.id}`, { token: adminSession.token, body: { profile: 'user' } }));
    expect(await admins(company.id)).toEqual([admin.id]);
  });

  it('keeps one admin when two admins demote each other at the same time', async () => {
    for (let round = 0; round < 3; round++) {
      const { company, admin, adminSession } = await seedTenant(t);
      const other = await seedUser(t, company.id, { profile: 'admin' });
      const otherSession = await loginAs(t, other);
      const results = await Promise.all([
        t.request('PUT', `/users/${other.id}`, { token: adminSession.token, body: { profile: 'user' } }),
        t.request('PUT', `/users/${admin.id}`, { token: otherSession.token, body: { profile: 'user' } }),
      ]);
      // The loser is refused either by the last-admin rule or, when its request was authenticated
      // after the other committed, because it is no admin any more.
      const loser = results.find((r) => r.status !== 200)!;
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(['ERR_LAST_ADMIN', 'ERR_NO_PERMISSION']).toContain(loser.body.error);
      expect(await admins(company.id)).toHaveLength(1);
    }
  });

  it('keeps one admin when both writes run at once past authentication (the check is inside the write)', async () => {
    for (let round = 0; round < 3; round++) {
      const { company, admin } = await seedTenant(t);
      const other = await seedUser(t, company.id, { profile: 'admin' });
      const actor = (userId: number) => ({ userId, companyId: company.id, profile: 'admin' as const, super: false, sessionId: 'test' });
      const outcomes = await Promise.allSettled([
        write(t.deps, (tx) => updateUser(tx, actor(admin.id), company.id, other.id, { profile: 'user' })),
        write(t.deps, (tx) => updateUser(tx, actor(other.id), company.id, admin.id, { profile: 'user' })),
      ]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ code: 'ERR_LAST_ADMIN' });
      expect(await admins(company.id)).toHaveLength(1);
    }
  });
});
