import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { loginAs, seedTenant, seedTicket, seedUser } from '../../../test/seed.ts';
import { sliceBesideAnotherWrite } from '../../../test/slices.ts';
import { inSlices } from '../../db/slices.ts';
import { tenant } from '../../db/tenant.ts';
import { releaseTagSlice } from './service.ts';

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

  // SQLite takes 32,766 values per statement (PostgreSQL 65,535, which would take this test 25 s there).
  it.runIf(dialect === 'sqlite')('deletes a tag that more tickets carry than one statement takes ids, each ticket with a new version', { timeout: 120_000 }, async () => {
    // The delete once bumped every ticket in one statement: a 500.
    const { company, adminSession } = await seedTenant(t);
    const db = tenant(t.db, company.id);
    const tag = (await createTag(adminSession.token, { name: 'Everyone' })).body as { id: number };
    const N = 33_000;
    for (let i = 0; i < N; i += 3_000) {
      const n = Math.min(3_000, N - i);
      const contacts = await db.insertInto('contacts', Array.from({ length: n }, (_, k) => ({ name: `C${i + k}`, number: `5511${String(i + k).padStart(9, '0')}` }))).returning('contacts.id').execute();
      const tickets = await db.insertInto('tickets', contacts.map((c) => ({ uuid: crypto.randomUUID(), contactId: c.id, status: 'closed', lastMessage: '' }))).returning('tickets.id').execute();
      await db.insertInto('ticketTags', tickets.map((x) => ({ ticketId: x.id, tagId: tag.id }))).execute();
    }
    const removed = await t.request('DELETE', `/tags/${tag.id}`, { token: adminSession.token });
    expect(removed.body).toEqual({ message: 'Tag deleted' });
    expect((await db.selectFrom('ticketTags').select('ticketTags.ticketId').where('ticketTags.tagId', '=', tag.id).execute()).length).toBe(0);
    const versions = await db.selectFrom('tickets').select((eb) => [eb.fn.min('tickets.version').as('least'), eb.fn.count<number>('tickets.id').as('n')]).executeTakeFirstOrThrow();
    expect({ least: Number(versions.least), n: Number(versions.n) }).toEqual({ least: 2, n: N });
  });

  it("lets a deleted tag's tickets go a slice at a time, other writes in between", async () => {
    const { company, adminSession } = await seedTenant(t);
    const other = await seedTenant(t);
    const tag = (await createTag(adminSession.token, { name: 'Sliced' })).body as { id: number };
    const tickets = await Promise.all(Array.from({ length: 7 }, () => seedTicket(t, company.id)));
    await tenant(t.db, company.id).insertInto('ticketTags', tickets.map((x) => ({ ticketId: x.id, tagId: tag.id }))).execute();
    const links = async () => (await t.db.selectFrom('ticketTags').select('ticketId').where('tagId', '=', tag.id).execute()).length;

    // Asked for by another company, the tag's id matches none of its tickets.
    await inSlices(t.deps, (tx, limit) => releaseTagSlice(tx, other.company.id, tag.id, limit), 2);
    expect(await links()).toBe(7);

    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => releaseTagSlice(tx, company.id, tag.id, limit), async () => (await links()) > 0);
    expect(await links()).toBe(0);
    const after = await t.db.selectFrom('tickets').select(['id', 'version']).where('id', 'in', tickets.map((x) => x.id)).execute();
    expect(after.every((r) => r.version === 2)).toBe(true);
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
