import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedContact, seedTenant } from '../../../test/seed.ts';
import { tenant as tenantDb } from '../../db/tenant.ts';

describe.each(DIALECTS)('queue options on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  async function setup() {
    const tenant = await seedTenant(t);
    const queue = (await t.request('POST', '/queue', { token: tenant.adminSession.token, body: { name: 'Menu', color: '#777777' } })).body;
    const add = async (title: string, parentId?: number) => {
      const res = await t.request('POST', '/queue-options', { token: tenant.adminSession.token, body: { queueId: queue.id, parentId, title, message: `${title}?` } });
      expect(res.status).toBe(201);
      return res.body as { id: number; option: number; parentId: number | null };
    };
    const level = async (parentId: number) =>
      (await t.request('GET', `/queue-options?queueId=${queue.id}&parentId=${parentId}`, { token: tenant.userSession.token })).body as { id: number; title: string; option: number }[];
    return { ...tenant, queue, add, level };
  }

  it('numbers options among siblings and nests them by parentId', async () => {
    const { add, level } = await setup();
    const a = await add('Sales');
    const b = await add('Support');
    const b1 = await add('Hardware', b.id);
    const b2 = await add('Software', b.id);
    expect([a.option, b.option, b1.option, b2.option]).toEqual([1, 2, 1, 2]);
    expect(b1.parentId).toBe(b.id);
    expect((await level(-1)).map((o) => o.title)).toEqual(['Sales', 'Support']);
    expect((await level(b.id)).map((o) => [o.title, o.option])).toEqual([['Hardware', 1], ['Software', 2]]);
  });

  it('deletes an option with its subtree and renumbers the remaining siblings 1..n', async () => {
    const { add, level, adminSession, queue } = await setup();
    const a = await add('One');
    const b = await add('Two');
    await add('Three');
    await add('Four');
    await add('Two-A', b.id);
    const deep = await add('Two-B', b.id);
    const deepest = await add('Two-B-i', deep.id);
    // A customer stood on an option of the subtree: the ticket loses it with a new version (synced clients see it).
    const db = tenantDb(t.db, queue.companyId);
    const contact = await seedContact(t, queue.companyId);
    const ticket = await db.insertInto('tickets', { uuid: crypto.randomUUID(), contactId: contact.id, queueId: queue.id, queueOptionId: deepest.id }).returningAll().executeTakeFirstOrThrow();
    const res = await t.request('DELETE', `/queue-options/${b.id}`, { token: adminSession.token });
    expect(res.status).toBe(200);
    expect(await db.selectFrom('tickets').select(['queueOptionId', 'version']).where('tickets.id', '=', ticket.id).executeTakeFirstOrThrow()).toEqual({ queueOptionId: null, version: ticket.version + 1 });
    expect((await level(-1)).map((o) => [o.title, o.option])).toEqual([['One', 1], ['Three', 2], ['Four', 3]]);
    const left = await t.db.selectFrom('queueOptions').select('title').where('queueId', '=', queue.id).orderBy('id').execute();
    expect(left.map((r) => r.title)).toEqual(['One', 'Three', 'Four']);
    const edited = await t.request('PUT', `/queue-options/${a.id}`, { token: adminSession.token, body: { title: 'First' } });
    expect(edited.body).toMatchObject({ title: 'First', option: 1, message: 'One?' });
  });

  it('refuses bad parents, attendants writing, and another company’s ids', async () => {
    const { add, adminSession, userSession, queue } = await setup();
    const other = await setup();
    const mine = await add('Mine');
    const foreignParent = await t.request('POST', '/queue-options', { token: adminSession.token, body: { queueId: queue.id, parentId: (await other.add('Theirs')).id, title: 'x' } });
    expect(foreignParent.status).toBe(400);
    expect(foreignParent.body.issues[0].path).toBe('parentId');
    expect((await t.request('POST', '/queue-options', { token: userSession.token, body: { queueId: queue.id, title: 'x' } })).status).toBe(403);
    expect((await t.request('POST', '/queue-options', { token: other.adminSession.token, body: { queueId: queue.id, title: 'x' } })).status).toBe(404);
    expect((await t.request('GET', `/queue-options?queueId=${queue.id}`, { token: other.adminSession.token })).status).toBe(404);
    expect((await t.request('PUT', `/queue-options/${mine.id}`, { token: other.adminSession.token, body: { title: 'x' } })).body.error).toBe('ERR_NOT_FOUND');
    expect((await t.request('DELETE', `/queue-options/${mine.id}`, { token: other.adminSession.token })).status).toBe(404);
    expect((await t.request('GET', '/queue-options', { token: adminSession.token })).status).toBe(400);
  });
});
