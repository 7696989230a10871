// Contact lists and their items over HTTP against the real app (spec/03 §7): the contract of every
// call, who may call it, another company's ids answered as not found, and the WhatsApp check done
// through the simulator's channel after the commit.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newNumber, setupDesk } from '../../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant, seedUser, loginAs } from '../../../test/seed.ts';
import { sliceBesideAnotherWrite } from '../../../test/slices.ts';
import { tenant } from '../../db/tenant.ts';
import { inSlices } from '../../db/slices.ts';
import { emptyContactListSlice } from './service.ts';
import { checkContactListNumbers, settleContactListChecks } from './whatsapp-check.ts';

describe.each(DIALECTS)('contact lists on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  }, 180_000);
  afterAll(async () => t.close());

  it('creates, reads, lists with contactsCount, renames and deletes a list with its items', async () => {
    const { adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const created = await t.request('POST', '/contact-lists', { token, body: { name: '  Customers ' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Customers', contactsCount: 0 });
    const id = created.body.id as number;
    await t.request('POST', '/contact-lists/', { token, body: { name: 'Alpha' } });
    const item = await t.request('POST', '/contact-list-items', { token, body: { name: 'Ana', number: '+55 (11) 98765-4321', email: 'ANA@example.com', contactListId: id } });
    expect(item.status).toBe(201);
    expect(item.body).toMatchObject({ name: 'Ana', number: '5511987654321', email: 'ana@example.com', contactListId: id, isWhatsappValid: null });

    const page = await t.request('GET', '/contact-lists?searchParam=cust', { token });
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ hasMore: false, records: [expect.objectContaining({ id, name: 'Customers', contactsCount: 1 })] });
    expect((await t.request('GET', '/contact-lists/', { token })).body.records.map((r: { name: string }) => r.name)).toEqual(['Alpha', 'Customers']);
    const accented = await t.request('POST', '/contact-lists/', { token, body: { name: 'Clientes São Paulo' } });
    expect((await t.request('GET', '/contact-lists?searchParam=SAO%20paulo', { token })).body.records.map((r: { id: number }) => r.id)).toEqual([accented.body.id]);
    await t.request('DELETE', `/contact-lists/${accented.body.id}`, { token });
    const all = await t.request('GET', '/contact-lists/list?companyId=999', { token });
    expect(all.body.map((r: { name: string }) => r.name)).toEqual(['Alpha', 'Customers']);
    expect((await t.request('GET', `/contact-lists/${id}`, { token })).body).toMatchObject({ id, contactsCount: 1 });

    const renamed = await t.request('PUT', `/contact-lists/${id}`, { token, body: { name: 'Clients' } });
    expect(renamed.body).toMatchObject({ id, name: 'Clients', contactsCount: 1 });
    const row = await t.db.selectFrom('contactLists').select('version').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.version).toBe(2);

    expect((await t.request('DELETE', `/contact-lists/${id}`, { token })).body).toEqual({ message: 'Contact list deleted' });
    expect((await t.request('GET', `/contact-lists/${id}`, { token })).status).toBe(404);
    expect((await t.request('GET', `/contact-list-items/${item.body.id}`, { token })).status).toBe(404);
  });


  it('keeps a list that a programmed or running campaign sends to, items included; a finished or cancelled one lets it go', async () => {
    const desk = await setupDesk(t);
    const token = desk.adminSession.token;
    const db = tenant(t.db, desk.companyId);
    const list = await db.insertInto('contactLists', { name: 'Natal' }).returningAll().executeTakeFirstOrThrow();
    await db.insertInto('contactListItems', [0, 1].map((i) => ({ contactListId: list.id, name: `N${i}`, number: newNumber() }))).execute();
    const inThreeHours = new Date(Date.now() + 3 * 3_600_000).toISOString();
    const made = await t.request('POST', '/campaigns', { token, body: { name: 'Natal 2026', message1: 'Oi {nome}', whatsappId: desk.connectionId, contactListId: list.id, scheduledAt: inThreeHours } });
    expect(made.body.status).toBe('PROGRAMADA');
    const refused = await t.request('DELETE', `/contact-lists/${list.id}`, { token });
    expect([refused.status, refused.body.error]).toEqual([409, 'ERR_CONTACT_LIST_IN_USE']);
    expect(refused.body.message).toContain('Natal 2026');
    expect((await t.request('GET', `/contact-lists/${list.id}`, { token })).body).toMatchObject({ contactsCount: 2 });
    expect((await t.request('GET', `/campaigns/${made.body.id}`, { token })).body).toMatchObject({ status: 'PROGRAMADA', contactListId: list.id });

    expect((await t.request('POST', `/campaigns/${made.body.id}/cancel`, { token })).body.status).toBe('CANCELADA');
    expect((await t.request('DELETE', `/contact-lists/${list.id}`, { token })).body).toEqual({ message: 'Contact list deleted' });
    expect((await t.request('GET', `/campaigns/${made.body.id}`, { token })).body.contactListId).toBeNull();
  });

  it('empties a deleted list a slice at a time, other writes in between; other lists keep their items', async () => {
    const { company, adminSession } = await seedTenant(t);
    const other = await seedTenant(t);
    const db = tenant(t.db, company.id);
    const list = await db.insertInto('contactLists', { name: 'Big' }).returning('contactLists.id').executeTakeFirstOrThrow();
    const kept = await db.insertInto('contactLists', { name: 'Kept' }).returning('contactLists.id').executeTakeFirstOrThrow();
    const items = (contactListId: number, n: number, from: number) => Array.from({ length: n }, (_, k) => ({ contactListId, name: `P${from + k}`, number: `55119444400${from + k}` }));
    await db.insertInto('contactListItems', [...items(list.id, 7, 10), ...items(kept.id, 1, 50)]).execute();
    const count = async (contactListId: number) => (await db.selectFrom('contactListItems').select('contactListItems.id').where('contactListItems.contactListId', '=', contactListId).execute()).length;

    // Asked for by another company, the list's id matches none of its items.
    await inSlices(t.deps, (tx, limit) => emptyContactListSlice(tx, other.company.id, list.id, limit), 2);
    expect(await count(list.id)).toBe(7);

    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => emptyContactListSlice(tx, company.id, list.id, limit), async () => (await count(list.id)) > 0);
    expect(await count(list.id)).toBe(0);
    expect(await count(kept.id)).toBe(1);

    expect((await t.request('DELETE', `/contact-lists/${list.id}`, { token: adminSession.token })).body).toEqual({ message: 'Contact list deleted' });
    expect((await t.request('GET', `/contact-lists/${list.id}`, { token: adminSession.token })).status).toBe(404);
    expect(await count(kept.id)).toBe(1);
  });
  it('validates names, numbers and emails, refuses a number twice in a list, pages items and searches them', async () => {
    const { adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const short = await t.request('POST', '/contact-lists', { token, body: { name: 'a' } });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'name', message: 'Too Short!' }] });
    expect((await t.request('POST', '/contact-lists', { token, body: { name: 'x'.repeat(51) } })).body.issues[0].message).toBe('Too Long!');
    expect((await t.request('POST', '/contact-lists', { token, body: '{"name":' })).body.error).toBe('ERR_INVALID_JSON');
    const list = (await t.request('POST', '/contact-lists', { token, body: { name: 'Leads' } })).body;
    const add = (body: Record<string, unknown>) => t.request('POST', '/contact-list-items', { token, body: { contactListId: list.id, ...body } });
    expect((await add({ name: 'B', number: '5511999990000' })).body.issues[0]).toMatchObject({ path: 'name' });
    expect((await add({ name: 'Bob', number: '1234567' })).body.issues[0]).toMatchObject({ path: 'number', message: 'Too Short!' });
    expect((await add({ name: 'Bob', number: '5511999990000', email: 'nope' })).body.issues[0]).toMatchObject({ path: 'email' });
    expect((await add({ name: 'Bob', number: '5511999990000', contactListId: 'x' })).status).toBe(400);
    expect((await add({ name: 'Bob', number: '5511999990000' })).status).toBe(201);
    const twice = await add({ name: 'Bobby', number: '55 11 99999-0000' });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('ERR_DUPLICATED_CONTACT');
    for (let i = 0; i < 20; i++) await add({ name: `Person ${String(i).padStart(2, '0')}`, number: `55118888${String(i).padStart(5, '0')}` });
    const first = await t.request('GET', `/contact-list-items?contactListId=${list.id}&pageNumber=1`, { token });
    expect(first.body.contacts).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    expect((await t.request('GET', `/contact-list-items/?contactListId=${list.id}&pageNumber=2`, { token })).body).toMatchObject({ hasMore: false, contacts: [expect.objectContaining({ name: 'Person 19' })] });
    const found = await t.request('GET', `/contact-list-items?contactListId=${list.id}&searchParam=bob`, { token });
    expect(found.body.contacts.map((c: { name: string }) => c.name)).toEqual(['Bob']);
    expect((await t.request('GET', `/contact-list-items?contactListId=${list.id}&searchParam=888800003`, { token })).body.contacts).toHaveLength(1);
    expect((await t.request('GET', '/contact-list-items', { token })).body.error).toBe('ERR_VALIDATION');

    const bob = found.body.contacts[0];
    const edited = await t.request('PUT', `/contact-list-items/${bob.id}`, { token, body: { name: 'Robert', email: '' } });
    expect(edited.body).toMatchObject({ id: bob.id, name: 'Robert', number: '5511999990000', email: '' });
    expect((await t.request('PUT', `/contact-list-items/${bob.id}`, { token, body: { number: '5511888800001' } })).status).toBe(409);
    expect((await t.request('GET', `/contact-list-items/${bob.id}`, { token })).body.name).toBe('Robert');
    expect((await t.request('DELETE', `/contact-list-items/${bob.id}`, { token })).body).toEqual({ message: 'Contact list item deleted' });
    expect((await t.request('GET', `/contact-lists/${list.id}`, { token })).body.contactsCount).toBe(20);
  });

  it('keeps the admin area to admins: attendants and supervisors get 403, no session 401', async () => {
    const { company, adminSession, userSession } = await seedTenant(t);
    const list = (await t.request('POST', '/contact-lists', { token: adminSession.token, body: { name: 'Staff only' } })).body;
    const item = (await t.request('POST', '/contact-list-items', { token: adminSession.token, body: { name: 'Ana', number: '5511977770000', contactListId: list.id } })).body;
    const calls: [string, string, unknown?][] = [
      ['GET', '/contact-lists'],
      ['GET', '/contact-lists/list'],
      ['GET', `/contact-lists/${list.id}`],
      ['POST', '/contact-lists', { name: 'Mine' }],
      ['PUT', `/contact-lists/${list.id}`, { name: 'Mine' }],
      ['DELETE', `/contact-lists/${list.id}`],
      ['GET', `/contact-list-items?contactListId=${list.id}`],
      ['GET', `/contact-list-items/${item.id}`],
      ['POST', '/contact-list-items', { name: 'Bo', number: '5511977770001', contactListId: list.id }],
      ['PUT', `/contact-list-items/${item.id}`, { name: 'Bo' }],
      ['DELETE', `/contact-list-items/${item.id}`],
    ];
    for (const [method, url, body] of calls) {
      const res = await t.request(method, url, { token: userSession.token, body });
      expect([url, res.status, res.body.error]).toEqual([url, 403, 'ERR_NO_PERMISSION']);
    }
    expect((await t.request('GET', '/contact-lists')).status).toBe(401);
    const supervisor = await loginAs(t, await seedUser(t, company.id, { profile: 'supervisor' }));
    expect((await t.request('GET', '/contact-lists', { token: supervisor.token })).status).toBe(403);
    expect((await t.request('GET', `/contact-lists/${list.id}`, { token: adminSession.token })).body.contactsCount).toBe(1);
  });

  it("answers another company's lists and items as not found", async () => {
    const mine = await seedTenant(t);
    const theirs = await seedTenant(t);
    const list = (await t.request('POST', '/contact-lists', { token: theirs.adminSession.token, body: { name: 'Theirs' } })).body;
    const item = (await t.request('POST', '/contact-list-items', { token: theirs.adminSession.token, body: { name: 'Ana', number: '5511966660000', contactListId: list.id } })).body;
    const token = mine.adminSession.token;
    const calls: [string, string, unknown?][] = [
      ['GET', `/contact-lists/${list.id}`],
      ['PUT', `/contact-lists/${list.id}`, { name: 'Mine now' }],
      ['DELETE', `/contact-lists/${list.id}`],
      ['GET', `/contact-list-items?contactListId=${list.id}`],
      ['GET', `/contact-list-items/${item.id}`],
      ['POST', '/contact-list-items', { name: 'Bo', number: '5511966660001', contactListId: list.id }],
      ['PUT', `/contact-list-items/${item.id}`, { name: 'Bo' }],
      ['DELETE', `/contact-list-items/${item.id}`],
      ['GET', '/contact-lists/99999999'],
      ['GET', '/contact-lists/abc'],
    ];
    for (const [method, url, body] of calls) {
      const res = await t.request(method, url, { token, body });
      expect([url, res.status, res.body.error]).toEqual([url, 404, 'ERR_NOT_FOUND']);
    }
    expect((await t.request('GET', '/contact-lists', { token })).body.records).toEqual([]);
    const upload = new FormData();
    upload.append('file', new Blob(['name;number\nBo;5511966660002\n'], { type: 'text/csv' }), 'x.csv');
    const res = await t.app.request(`/contact-lists/${list.id}/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: upload });
    expect(res.status).toBe(404);
    const still = await t.request('GET', `/contact-lists/${list.id}`, { token: theirs.adminSession.token });
    expect(still.body).toMatchObject({ name: 'Theirs', contactsCount: 1 });
  });

  it('asks the connected channel whether each number is on WhatsApp, after the commit', async () => {
    const desk = await setupDesk(t);
    const token = desk.adminSession.token;
    const absent = newNumber();
    await t.request('POST', '/simulator/numbers', { token, body: { connectionId: desk.connectionId, number: absent, exists: false } });
    const list = (await t.request('POST', '/contact-lists', { token, body: { name: 'Checked' } })).body;
    const on = (await t.request('POST', '/contact-list-items', { token, body: { name: 'On', number: newNumber(), contactListId: list.id } })).body;
    const off = (await t.request('POST', '/contact-list-items', { token, body: { name: 'Off', number: absent, contactListId: list.id } })).body;
    await settleContactListChecks(t.deps);
    const items = (await t.request('GET', `/contact-list-items?contactListId=${list.id}`, { token })).body.contacts;
    expect(items.map((i: { id: number; isWhatsappValid: boolean | null }) => [i.id, i.isWhatsappValid])).toEqual([
      [off.id, false],
      [on.id, true],
    ]);
    const versions = await t.db.selectFrom('contactListItems').select(['id', 'version']).where('contactListId', '=', list.id).orderBy('id').execute();
    expect(versions.map((v) => v.version)).toEqual([2, 2]);

    // A changed number is unknown again until the channel answers for it.
    const moved = await t.request('PUT', `/contact-list-items/${off.id}`, { token, body: { number: newNumber() } });
    expect(moved.body.isWhatsappValid).toBeNull();
    await settleContactListChecks(t.deps);
    expect((await t.request('GET', `/contact-list-items/${off.id}`, { token })).body.isWhatsappValid).toBe(true);
  });

  it('pokes the company when the answers are recorded (the screens read themselves again on a poke)', async () => {
    const desk = await setupDesk(t);
    const list = await tenant(t.db, desk.companyId).insertInto('contactLists', { name: 'Direct' }).returning('id').executeTakeFirstOrThrow();
    await tenant(t.db, desk.companyId).insertInto('contactListItems', { contactListId: list.id, name: 'Ana', number: newNumber() }).execute();
    const pokes = vi.spyOn(t.deps.realtime, 'pokeCompany');
    try {
      await checkContactListNumbers(t.deps, desk.companyId, list.id);
      expect(pokes).toHaveBeenCalledWith(desk.companyId);
    } finally {
      pokes.mockRestore();
    }
    const row = await t.db.selectFrom('contactListItems').select(['isWhatsappValid', 'version']).where('contactListId', '=', list.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ isWhatsappValid: 1, version: 2 });
  });

  it('leaves numbers unchecked (null) while no connection is connected, and checks them once one connects', async () => {
    const { adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const list = (await t.request('POST', '/contact-lists', { token, body: { name: 'Offline' } })).body;
    const item = (await t.request('POST', '/contact-list-items', { token, body: { name: 'Ana', number: newNumber(), contactListId: list.id } })).body;
    await settleContactListChecks(t.deps);
    expect((await t.request('GET', `/contact-list-items/${item.id}`, { token })).body.isWhatsappValid).toBeNull();

    const connection = await t.request('POST', '/whatsapp', { token, body: { name: 'Late line', provider: 'simulator', isDefault: true } });
    await t.request('POST', `/whatsappsession/${connection.body.id}`, { token });
    expect((await t.request('POST', `/simulator/connections/${connection.body.id}/scan`, { token })).body.status).toBe('CONNECTED');
    await expect
      .poll(async () => {
        await settleContactListChecks(t.deps);
        return (await t.request('GET', `/contact-list-items/${item.id}`, { token })).body.isWhatsappValid;
      })
      .toBe(true);
  });
});
