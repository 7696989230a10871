import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenant } from '../../db/tenant.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { loginAs, seedTenant, seedUser } from '../../../test/seed.ts';
import { periodOfDays, resolveDashboardPeriod, startOfLocalDay } from './period.ts';
import { bumpVersion } from '../../sync/version.ts';

const JAN = 'date_from=2025-01-01&date_to=2025-01-31&timezone=UTC';

describe.each(DIALECTS)('dashboard on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  let seq = 0;

  /** A company with hand-built tickets, trackings and ratings whose numbers are worked out below. */
  async function seedCompanyData() {
    const tn = await seedTenant(t);
    const tt = tenant(t.db, tn.company.id);
    await tt.updateTable('users').set({ name: 'Ana', ...bumpVersion() }).where('id', '=', tn.admin.id).execute();
    await tt.updateTable('users').set({ name: 'Bruno', ...bumpVersion() }).where('id', '=', tn.user.id).execute();
    const carla = await seedUser(t, tn.company.id, { name: 'Carla' });
    await tt.updateTable('users').set({ online: 1, ...bumpVersion() }).where('id', '=', carla.id).execute();
    const contact = (name: string, createdAt: string, isGroup: 0 | 1 = 0) =>
      tt.insertInto('contacts', { name, number: `55319${String(70000000 + ++seq)}`, createdAt, isGroup }).returningAll().executeTakeFirstOrThrow();
    const c1 = await contact('In January', '2025-01-10T12:00:00.000Z');
    await contact('Last minute of January', '2025-01-31T23:59:00.000Z');
    await contact('February', '2025-02-01T00:00:00.000Z');
    await contact('December', '2024-12-31T23:59:59.000Z');
    await contact('A group', '2025-01-15T12:00:00.000Z', 1);
    const ticket = (status: string, userId: number | null, createdAt: string) =>
      tt.insertInto('tickets', { uuid: `dash-${++seq}-${tn.company.id}`, contactId: c1.id, status, userId, createdAt }).returningAll().executeTakeFirstOrThrow();
    const t1 = await ticket('open', tn.user.id, '2025-01-05T10:00:00.000Z');
    await ticket('open', tn.admin.id, '2025-01-06T01:30:00.000Z'); // 05/01 22:30 in São Paulo
    await ticket('pending', null, '2025-01-07T10:00:00.000Z');
    await ticket('closed', tn.user.id, '2025-01-20T14:05:00.000Z');
    await ticket('closed', tn.admin.id, '2024-12-01T10:00:00.000Z');
    const track = (v: { userId: number | null; createdAt?: string; queuedAt?: string | null; startedAt?: string | null; finishedAt?: string | null }) =>
      tt.insertInto('ticketTrackings', { ticketId: t1.id, userId: v.userId, createdAt: v.createdAt, queuedAt: v.queuedAt ?? null, startedAt: v.startedAt ?? null, finishedAt: v.finishedAt ?? null }).execute();
    // Bruno: waits 10 and 20 (no queue: from the cycle's start), supports 30 and 60.
    await track({ userId: tn.user.id, queuedAt: '2025-01-10T10:00:00.000Z', startedAt: '2025-01-10T10:10:00.000Z', finishedAt: '2025-01-10T10:40:00.000Z' });
    await track({ userId: tn.user.id, createdAt: '2025-01-11T11:00:00.000Z', startedAt: '2025-01-11T11:20:00.000Z', finishedAt: '2025-01-11T12:20:00.000Z' });
    // Ana: waits 30, supports 15; her February cycle is outside the period.
    await track({ userId: tn.admin.id, queuedAt: '2025-01-12T09:00:00.000Z', startedAt: '2025-01-12T09:30:00.000Z', finishedAt: '2025-01-12T09:45:00.000Z' });
    await track({ userId: tn.admin.id, queuedAt: '2025-02-02T09:00:00.000Z', startedAt: '2025-02-02T09:00:00.000Z', finishedAt: '2025-02-02T23:00:00.000Z' });
    // Closed without anyone accepting it: finished, but no support or wait time.
    await track({ userId: null, finishedAt: '2025-01-13T08:00:00.000Z' });
    // Still running: not finished, not counted.
    await track({ userId: tn.user.id, queuedAt: '2025-01-14T08:00:00.000Z', startedAt: '2025-01-14T09:00:00.000Z' });
    const rate = (userId: number, value: number, createdAt: string) => tt.insertInto('userRatings', { ticketId: t1.id, userId, rate: value, createdAt }).execute();
    await rate(tn.user.id, 3, '2025-01-10T11:00:00.000Z');
    await rate(tn.user.id, 2, '2025-01-11T13:00:00.000Z');
    await rate(tn.user.id, 1, '2025-02-03T13:00:00.000Z');
    await rate(tn.admin.id, 1, '2025-01-12T10:00:00.000Z');
    return { ...tn, carla };
  }

  it('GET /dashboard computes counters and attendants from the period', async () => {
    const s = await seedCompanyData();
    await seedCompanyData(); // another company's identical data must not leak into the numbers
    const res = await t.request('GET', `/dashboard?${JAN}`, { token: s.adminSession.token });
    expect(res.status).toBe(200);
    expect(res.body.counters).toEqual({
      supportHappening: 2,
      supportPending: 1,
      supportFinished: 4,
      avgSupportTime: 35,
      avgWaitTime: 20,
      newContacts: 2,
      leads: 2,
    });
    expect(res.body.attendants).toEqual([
      { id: s.admin.id, name: 'Ana', rating: 1, avgSupportTime: 15, online: false, tickets: 1 },
      { id: s.user.id, name: 'Bruno', rating: 2.5, avgSupportTime: 45, online: false, tickets: 2 },
      { id: s.carla.id, name: 'Carla', rating: 0, avgSupportTime: 0, online: true, tickets: 0 },
    ]);
    expect(res.body.period).toEqual({ from: '2025-01-01T00:00:00.000Z', to: '2025-02-01T00:00:00.000Z', timeZone: 'UTC' });
    // In São Paulo (UTC-3) January ends at 03:00 UTC on 1 February: the February contact joins.
    const sp = await t.request('GET', '/dashboard?date_from=2025-01-01&date_to=2025-01-31&timezone=America/Sao_Paulo', { token: s.adminSession.token });
    expect(sp.body.counters.newContacts).toBe(3);
    expect(sp.body.period.from).toBe('2025-01-01T03:00:00.000Z');
  });

  it('an empty period answers zeros, never nulls', async () => {
    const s = await seedCompanyData();
    const res = await t.request('GET', '/dashboard?date_from=2020-01-01&date_to=2020-01-31&timezone=UTC', { token: s.adminSession.token });
    expect(res.body.counters).toEqual({ supportHappening: 2, supportPending: 1, supportFinished: 0, avgSupportTime: 0, avgWaitTime: 0, newContacts: 0, leads: 0 });
    expect(res.body.attendants.map((a: { tickets: number; rating: number }) => [a.tickets, a.rating])).toEqual([[0, 0], [0, 0], [0, 0]]);
  });

  it('GET /dashboard defaults to this month and reads `days` as today and the N days before', async () => {
    const s = await seedCompanyData();
    const plain = await t.request('GET', '/dashboard?timezone=UTC', { token: s.adminSession.token });
    expect(plain.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(plain.body.period.from).toBe(`${today.slice(0, 8)}01T00:00:00.000Z`);
    const week = await t.request('GET', '/dashboard?days=7&timezone=UTC', { token: s.adminSession.token });
    expect(Date.parse(week.body.period.to) - Date.parse(week.body.period.from)).toBe(8 * 86400_000);
  });

  it('GET /dashboard/ticketsUsers counts tickets created in the period per user', async () => {
    const s = await seedCompanyData();
    const res = await t.request('GET', `/dashboard/ticketsUsers?initialDate=2025-01-01&finalDate=2025-01-31&companyId=999&timezone=UTC`, { token: s.adminSession.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [{ nome: 'Bruno', quantidade: 2 }, { nome: 'Ana', quantidade: 1 }], count: 3 });
  });

  it('GET /dashboard/ticketsDay counts per local day, or per hour for one day', async () => {
    const s = await seedCompanyData();
    const days = await t.request('GET', '/dashboard/ticketsDay?initialDate=2025-01-05&finalDate=2025-01-07&timezone=UTC', { token: s.adminSession.token });
    expect(days.body).toEqual({ data: [{ data: '05/01/2025', total: 1 }, { data: '06/01/2025', total: 1 }, { data: '07/01/2025', total: 1 }], count: 3 });
    const sp = await t.request('GET', '/dashboard/ticketsDay?initialDate=2025-01-05&finalDate=2025-01-07&timezone=America/Sao_Paulo', { token: s.adminSession.token });
    expect(sp.body.data).toEqual([{ data: '05/01/2025', total: 2 }, { data: '06/01/2025', total: 0 }, { data: '07/01/2025', total: 1 }]);
    const hours = await t.request('GET', '/dashboard/ticketsDay?initialDate=2025-01-20&finalDate=2025-01-20&timezone=UTC', { token: s.adminSession.token });
    expect(hours.body.count).toBe(1);
    expect(hours.body.data).toHaveLength(24);
    expect(hours.body.data[14]).toEqual({ horario: '14', total: 1 });
    expect(hours.body.data.filter((r: { total: number }) => r.total > 0)).toHaveLength(1);
  });

  it('is for admins only and validates its filters', async () => {
    const s = await seedCompanyData();
    for (const path of [`/dashboard?${JAN}`, '/dashboard/ticketsUsers?initialDate=2025-01-01&finalDate=2025-01-02', '/dashboard/ticketsDay?initialDate=2025-01-01&finalDate=2025-01-02']) {
      expect((await t.request('GET', path, { token: s.userSession.token })).status, path).toBe(403);
      expect((await t.request('GET', path)).status, path).toBe(401);
    }
    const supervisor = await seedUser(t, s.company.id, { profile: 'supervisor' });
    expect((await t.request('GET', '/dashboard', { token: (await loginAs(t, supervisor)).token })).status).toBe(403);
    const bad = async (path: string) => (await t.request('GET', path, { token: s.adminSession.token })).body.error;
    expect(await bad('/dashboard?date_from=2025-02-01&date_to=2025-01-01')).toBe('ERR_VALIDATION');
    expect(await bad('/dashboard?date_from=01/02/2025')).toBe('ERR_VALIDATION');
    expect(await bad('/dashboard?days=-1')).toBe('ERR_VALIDATION');
    expect(await bad('/dashboard?timezone=Mars/Olympus')).toBe('ERR_VALIDATION');
    expect(await bad('/dashboard/ticketsDay?initialDate=2025-01-02')).toBe('ERR_VALIDATION');
    expect(await bad('/dashboard/ticketsUsers?initialDate=2025-01-02&finalDate=2025-01-01')).toBe('ERR_VALIDATION');
  });
});

describe('dashboard periods', () => {
  it('turns local days into UTC instants across zones and daylight saving', () => {
    expect(startOfLocalDay('2025-01-01', 'UTC').toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(startOfLocalDay('2025-01-01', 'America/Sao_Paulo').toISOString()).toBe('2025-01-01T03:00:00.000Z');
    expect(startOfLocalDay('2025-07-01', 'Europe/Lisbon').toISOString()).toBe('2025-06-30T23:00:00.000Z');
    expect(startOfLocalDay('2025-12-01', 'Europe/Lisbon').toISOString()).toBe('2025-12-01T00:00:00.000Z');
    // The day after the spring change is 23 hours long in Lisbon.
    const p = periodOfDays('2025-03-30', '2025-03-30', 'Europe/Lisbon');
    expect(p.to.getTime() - p.from.getTime()).toBe(23 * 3600_000);
  });

  it('resolves the dashboard filters', () => {
    const now = new Date('2025-05-20T02:00:00.000Z'); // 19 May, 23:00 in São Paulo
    const sp = 'America/Sao_Paulo';
    expect(resolveDashboardPeriod({}, now, sp).from.toISOString()).toBe('2025-05-01T03:00:00.000Z');
    expect(resolveDashboardPeriod({}, now, sp).to.toISOString()).toBe('2025-05-20T03:00:00.000Z');
    expect(resolveDashboardPeriod({ days: 0 }, now, sp).from.toISOString()).toBe('2025-05-19T03:00:00.000Z');
    expect(resolveDashboardPeriod({ days: 3, date_to: '2025-04-10' }, now, sp).from.toISOString()).toBe('2025-04-01T03:00:00.000Z');
  });
});
