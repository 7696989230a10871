import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { loginAs, seedTenant, seedTicket, seedUser } from '../../../test/seed.ts';

describe.each(DIALECTS)('tags on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const createTag = (token: string, body: unknown) => t.request('POST', '/tags', { token, body });

  it('creates, reads, lists with ticket counts, updates and deletes a tag', async () => {
    const { company, user, adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const created = await createTag(token, { name: '  Urgent ', color: '#FF0000', kanban: 1 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Urgent', color: '#FF0000', kanban: 1, userId: adminSession.body.user.id });
    const other = await createTag(token, { name: 'Billing' });
    expect(other.body).toMatchObject({ color: '#A4CCCC', kanban: 0 });

    const ticket = await seedTicket(t, company.id, { userId: user.id });
    await t.request('PUT', `/ticket-tags/${ticket.id}/${created.body.id}`, { token });

    const list = await t.request('GET', '/tags?searchParam=urg', { token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ hasMore: false, tags: [expect.objectContaining({ id: created.body.id, name: 'Urgent', ticketsCount: 1 })] });
    const accented = await createTag(token, { name: 'Atenção' });
    expect((await t.request('GET', '/tags?searchParam=ATENCAO', { token })).body.tags.map((x: { id: number }) => x.id)).toEqual([accented.body.id]);
    await t.request('DELETE', `/tags/${accented.body.id}`, { token });
    const all = await t.request('GET', '/tags/', { token });
    expect(all.body.tags.map((x: { name: string }) => x.name)).toEqual(['Billing', 'Urgent']);
    expect(all.body.tags[0].ticketsCount).toBe(0);

    const one = await t.request('GET', `/tags/${created.body.id}`, { token });
    expect(one.body).toMatchObject({ id: created.body.id, name: 'Urgent' });
    const select = await t.request('GET', '/tags/list', { token });
    expect(select.body.map((x: { id: number }) => x.id)).toEqual([other.body.id, created.body.id]);

    const updated = await t.request('PUT', `/tags/${other.body.id}`, { token, body: { name: 'Billing team', color: '#00ff00' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Billing team', color: '#00ff00' });
    const row = await t.db.selectFrom('tags').select(['version', 'updatedAt']).where('id', '=', other.body.id).executeTakeFirstOrThrow();
    expect(row.version).toBe(2);

    const removed = await t.request('DELETE', `/tags/${created.body.id}`, { token });
    expect(removed.status).toBe(200);
    expect((await t.request('GET', `/tags/${created.body.id}`, { token })).status).toBe(404);
    const links = await t.db.selectFrom('ticketTags').selectAll().where('ticketId', '=', ticket.id).execute();
    expect(links).toEqual([]);
  });

  it('pages 20 tags at a time', async () => {
    const { adminSession } = await seedTenant(t);
    for (let i = 0; i < 21; i++) await createTag(adminSession.token, { name: `Tag ${String(i).padStart(2, '0')}` });
    const first = await t.request('GET', '/tags?pageNumber=1', { token: adminSession.token });
    expect(first.body.tags).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    const second = await t.request('GET', '/tags?pageNumber=2', { token: adminSession.token });
    expect(second.body).toMatchObject({ hasMore: false, tags: [expect.objectContaining({ name: 'Tag 20' })] });
  });

  it('validates name, colour, kanban and refuses duplicates per company only', async () => {
    const { adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const short = await createTag(token, { name: 'ab' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'name' }] });
    expect((await createTag(token, {})).body.error).toBe('ERR_VALIDATION');
    expect((await createTag(token, { name: 'Fine', color: 'red;' })).body.issues[0].path).toBe('color');
    expect((await createTag(token, { name: 'Fine', kanban: 2 })).body.issues[0].path).toBe('kanban');
    expect((await createTag(token, { name: 42 })).status).toBe(400);
    expect((await t.request('POST', '/tags', { token, body: '{"name":' })).body.error).toBe('ERR_INVALID_JSON');

    expect((await createTag(token, { name: 'Vip' })).status).toBe(201);
    const dup = await createTag(token, { name: 'VIP' });
    expect(dup.status).toBe(400);
    expect(dup.body.issues).toEqual([{ path: 'name', message: 'A tag with this name already exists' }]);
    const another = await seedTenant(t);
    expect((await createTag(another.adminSession.token, { name: 'Vip' })).status).toBe(201);
  });

  it('lets only admins and supervisors set the kanban flag', async () => {
    const { company, userSession, adminSession } = await seedTenant(t);
    const supervisor = await loginAs(t, await seedUser(t, company.id, { profile: 'supervisor' }));
    const refused = await createTag(userSession.token, { name: 'Lane', kanban: 1 });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_NO_PERMISSION');
    const plain = await createTag(userSession.token, { name: 'Plain tag', kanban: 0 });
    expect(plain.status).toBe(201);
    expect((await t.request('PUT', `/tags/${plain.body.id}`, { token: userSession.token, body: { kanban: 1 } })).status).toBe(403);
    // Sending the unchanged flag back with the form is fine.
    expect((await t.request('PUT', `/tags/${plain.body.id}`, { token: userSession.token, body: { name: 'Plainer', kanban: 0 } })).status).toBe(200);
    expect((await createTag(supervisor.token, { name: 'Lane', kanban: true })).body.kanban).toBe(1);
    const admin = await t.request('PUT', `/tags/${plain.body.id}`, { token: adminSession.token, body: { kanban: 1 } });
    expect(admin.body.kanban).toBe(1);
    const byUser = await t.request('PUT', `/tags/${plain.body.id}`, { token: userSession.token, body: { kanban: 0 } });
    expect(byUser.status).toBe(403);
  });

  it('refuses another company tags and unknown ids with 404, and needs a session', async () => {
    const mine = await seedTenant(t);
    const theirs = await seedTenant(t);
    const tag = await createTag(theirs.adminSession.token, { name: 'Secret' });
    const token = mine.adminSession.token;
    for (const [method, url, body] of [
      ['GET', `/tags/${tag.body.id}`],
      ['PUT', `/tags/${tag.body.id}`, { name: 'Mine now' }],
      ['DELETE', `/tags/${tag.body.id}`],
      ['GET', '/tags/abc'],
      ['GET', '/tags/99999999'],
    ] as const) {
      const res = await t.request(method, url, { token, body });
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    expect((await t.request('GET', '/tags', { token })).body.tags).toEqual([]);
    expect((await t.request('GET', '/tags')).status).toBe(401);
  });
});
