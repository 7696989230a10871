import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_QUEUE_SCHEDULES } from '@zapdesk/sync';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant, seedTicket } from '../../../test/seed.ts';
import { sliceBesideAnotherWrite } from '../../../test/slices.ts';
import { inSlices } from '../../db/slices.ts';
import { tenant } from '../../db/tenant.ts';
import { releaseQueueSlice } from './service.ts';

describe.each(DIALECTS)('queues on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const create = (token: string, body: Record<string, unknown>) => t.request('POST', '/queue', { token, body });

  it('creates a queue with the default service hours and lists by orderQueue', async () => {
    const { adminSession, userSession } = await seedTenant(t);
    const first = await create(adminSession.token, { name: 'Sales', color: '#ff0000', orderQueue: 2 });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ name: 'Sales', color: '#ff0000', orderQueue: 2, greetingMessage: null, promptId: null });
    expect(first.body.schedules).toEqual(DEFAULT_QUEUE_SCHEDULES);
    expect(first.body.schedules[0]).toEqual({ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' });
    expect(first.body.schedules[5]).toMatchObject({ weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' });
    expect(first.body.schedules[6]).toMatchObject({ weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' });
    await create(adminSession.token, { name: 'Support', color: '#00ff00', orderQueue: 1, greetingMessage: 'Hi' });
    await create(adminSession.token, { name: 'Billing', color: '#0000ff', greetingMessage: 'Hi' });
    // Any signed-in user reads them.
    const list = await t.request('GET', '/queue', { token: userSession.token });
    expect(list.body.map((q: { name: string }) => q.name)).toEqual(['Support', 'Sales', 'Billing']);
    expect((await t.request('GET', `/queue/${first.body.id}`, { token: userSession.token })).body.name).toBe('Sales');
  });

  it('refuses a used colour with 409 ERR_QUEUE_COLOR_ALREADY_EXISTS and a used name with 400', async () => {
    const { adminSession } = await seedTenant(t);
    await create(adminSession.token, { name: 'Sales', color: '#ABCDEF' });
    const colour = await create(adminSession.token, { name: 'Other', color: '#abcdef', greetingMessage: 'Hi' });
    expect(colour.status).toBe(409);
    expect(colour.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    const name = await create(adminSession.token, { name: 'sales', color: '#123456', greetingMessage: 'Hi' });
    expect(name.status).toBe(400);
    expect(name.body.issues[0].path).toBe('name');
    // Another company may use the same colour and name.
    const other = await seedTenant(t);
    expect((await create(other.adminSession.token, { name: 'Sales', color: '#ABCDEF' })).status).toBe(201);
    expect((await create(adminSession.token, { name: 'x', color: '#1' })).body.issues.map((i: { path: string }) => i.path)).toEqual(['name', 'color']);
  });

  it('requires a greeting once the company has more than one queue', async () => {
    const { adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const first = await create(token, { name: 'Sales', color: '#111111' });
    expect(first.status).toBe(201);
    const second = await create(token, { name: 'Support', color: '#222222' });
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
    expect((await create(token, { name: 'Support', color: '#222222', greetingMessage: 'Hello' })).status).toBe(201);
    // With two queues, an edit of the first that keeps it without a greeting is refused.
    const edit = await t.request('PUT', `/queue/${first.body.id}`, { token, body: { name: 'Sales team' } });
    expect(edit.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
    expect((await t.request('PUT', `/queue/${first.body.id}`, { token, body: { name: 'Sales team', greetingMessage: 'Olá' } })).status).toBe(200);
  });

  it('updates schedules and bumps version; deletes; enforces the plan limit', async () => {
    const { adminSession } = await seedTenant(t, { queues: 1 } as never);
    const token = adminSession.token;
    const q = (await create(token, { name: 'Only', color: '#333333' })).body;
    const updated = await t.request('PUT', `/queue/${q.id}`, { token, body: { schedules: [{ weekdayEn: 'sunday', startTime: '10:00', endTime: '14:00' }], promptId: null } });
    expect(updated.body.schedules).toEqual([{ weekday: 'Domingo', weekdayEn: 'sunday', startTime: '10:00', endTime: '14:00' }]);
    expect(updated.body.version).toBe(q.version + 1);
    expect((await t.request('PUT', `/queue/${q.id}`, { token, body: { schedules: [{ weekdayEn: 'sunday', startTime: '25:00', endTime: '14:00' }] } })).status).toBe(400);
    const over = await create(token, { name: 'Second', color: '#444444', greetingMessage: 'Hi' });
    expect(over.status).toBe(403);
    expect(over.body.message).toMatch(/allows 1 queue/);
    expect((await t.request('DELETE', `/queue/${q.id}`, { token })).status).toBe(200);
    expect((await t.request('GET', `/queue/${q.id}`, { token })).status).toBe(404);
  });

  it('deleting a queue detaches its tickets and transfer targets with new versions, so synced clients see it', async () => {
    const { adminSession, company } = await seedTenant(t);
    const token = adminSession.token;
    const q = (await create(token, { name: 'Leaving', color: '#505050' })).body;
    const ticket = await seedTicket(t, company.id, { queueId: q.id });
    const db = tenant(t.db, company.id);
    // A ticket in the bot's menu stands on one of the queue's options, which go with the queue.
    const option = await db.insertInto('queueOptions', { queueId: q.id, title: 'Prices', option: 1 }).returning('id').executeTakeFirstOrThrow();
    const inMenu = await seedTicket(t, company.id, { queueId: q.id, queueOptionId: option.id });
    const line = (await t.request('POST', '/whatsapp', { token, body: { name: 'Line', transferQueueId: q.id } })).body;
    expect((await t.request('DELETE', `/queue/${q.id}`, { token })).status).toBe(200);
    expect(await db.selectFrom('tickets').select(['queueId', 'version']).where('tickets.id', '=', ticket.id).executeTakeFirstOrThrow()).toEqual({ queueId: null, version: ticket.version + 1 });
    const leftMenu = await db.selectFrom('tickets').select(['queueId', 'queueOptionId', 'version']).where('tickets.id', '=', inMenu.id).executeTakeFirstOrThrow();
    expect(leftMenu).toMatchObject({ queueId: null, queueOptionId: null });
    expect(leftMenu.version).toBeGreaterThan(inMenu.version);
    expect(await db.selectFrom('whatsapps').select(['transferQueueId', 'version']).where('whatsapps.id', '=', line.id).executeTakeFirstOrThrow()).toEqual({ transferQueueId: null, version: line.version + 1 });
  });

  it("lets a deleted queue's tickets go a slice at a time, other writes in between", async () => {
    const { adminSession, company } = await seedTenant(t);
    const other = await seedTenant(t);
    const q = (await create(adminSession.token, { name: 'Busy', color: '#606060' })).body;
    const tickets = await Promise.all(Array.from({ length: 7 }, () => seedTicket(t, company.id, { queueId: q.id })));
    const inQueue = async () => (await t.db.selectFrom('tickets').select('id').where('queueId', '=', q.id).execute()).length;

    // Asked for by another company, the queue's id matches none of its tickets.
    await inSlices(t.deps, (tx, limit) => releaseQueueSlice(tx, other.company.id, q.id, limit), 2);
    expect(await inQueue()).toBe(7);

    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => releaseQueueSlice(tx, company.id, q.id, limit), async () => (await inQueue()) > 0);
    expect(await inQueue()).toBe(0);
    const after = await t.db.selectFrom('tickets').select(['id', 'version']).where('id', 'in', tickets.map((x) => x.id)).execute();
    expect(after.map((r) => r.version)).toEqual(tickets.map((x) => x.version + 1));
    expect((await t.request('DELETE', `/queue/${q.id}`, { token: adminSession.token })).status).toBe(200);
  });

  it('lets only admins change queues and refuses another company’s ids', async () => {
    const { adminSession, userSession } = await seedTenant(t);
    const other = await seedTenant(t);
    const q = (await create(adminSession.token, { name: 'Mine', color: '#555555' })).body;
    expect((await create(userSession.token, { name: 'Nope', color: '#666666' })).status).toBe(403);
    expect((await t.request('PUT', `/queue/${q.id}`, { token: userSession.token, body: { name: 'Nope' } })).status).toBe(403);
    expect((await t.request('DELETE', `/queue/${q.id}`, { token: userSession.token })).status).toBe(403);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await t.request(method, `/queue/${q.id}`, { token: other.adminSession.token, body: method === 'PUT' ? { name: 'Stolen', greetingMessage: 'x' } : undefined });
      expect(res.status, method).toBe(404);
      expect(res.body.error).toBe('ERR_NOT_FOUND');
    }
    expect((await t.request('GET', '/queue', { token: other.adminSession.token })).body).toEqual([]);
  });
});
