import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenant } from '../../db/tenant.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant, seedUser, loginAs } from '../../../test/seed.ts';
import { bumpVersion } from '../../sync/version.ts';

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

describe.each(DIALECTS)('schedules REST on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  let seq = 0;
  const seedContact = (companyId: number, name = `Contact ${++seq}`) =>
    tenant(t.db, companyId).insertInto('contacts', { name, number: `5511${String(90000000 + ++seq)}` }).returningAll().executeTakeFirstOrThrow();

  async function setup() {
    const tn = await seedTenant(t);
    const contact = await seedContact(tn.company.id, 'Maria Souza');
    return { ...tn, contact };
  }

  it('POST /schedules creates a PENDENTE schedule with contact and user, and GET reads it back', async () => {
    const { adminSession, admin, contact } = await setup();
    const sendAt = inHours(1);
    const res = await t.request('POST', '/schedules', { token: adminSession.token, body: { body: 'Olá {{firstName}}, tudo bem?', contactId: contact.id, sendAt } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      body: 'Olá {{firstName}}, tudo bem?',
      status: 'PENDENTE',
      sendAt,
      sentAt: null,
      error: null,
      contactId: contact.id,
      contact: { id: contact.id, name: 'Maria Souza', number: contact.number },
      userId: admin.id,
      user: { id: admin.id, name: admin.name },
      ticketId: null,
      mediaPath: null,
      mediaName: null,
      version: 1,
    });
    const got = await t.request('GET', `/schedules/${res.body.id}`, { token: adminSession.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    // A zone offset is read as such and stored in UTC.
    const offset = await t.request('POST', '/schedules/', { token: adminSession.token, body: { body: 'Another one', contactId: String(contact.id), sendAt: '2099-12-01T14:30-03:00' } });
    expect(offset.status).toBe(201);
    expect(offset.body.sendAt).toBe('2099-12-01T17:30:00.000Z');
  });

  it('POST /schedules validates body, contactId and sendAt with the form messages', async () => {
    const { adminSession, contact } = await setup();
    const post = (body: unknown) => t.request('POST', '/schedules', { token: adminSession.token, body });
    const short = await post({ body: 'oi', contactId: contact.id, sendAt: inHours(1) });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('ERR_VALIDATION');
    expect(short.body.issues).toContainEqual({ path: 'body', message: 'Mensagem muito curta' });
    const missing = await post({ body: 'hello there' });
    expect(missing.status).toBe(400);
    expect(missing.body.issues).toEqual(
      expect.arrayContaining([
        { path: 'contactId', message: 'Obrigatório' },
        { path: 'sendAt', message: 'Obrigatório' },
      ]),
    );
    const local = await post({ body: 'hello there', contactId: contact.id, sendAt: '2099-12-01T14:30' });
    expect(local.status).toBe(400);
    expect(local.body.issues[0].path).toBe('sendAt');
    const past = await post({ body: 'hello there', contactId: contact.id, sendAt: new Date(Date.now() - 5 * 60_000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.issues).toEqual([{ path: 'sendAt', message: 'The send time must not be in the past' }]);
    // Within the minute of tolerance is fine (a form filled across a minute boundary).
    expect((await post({ body: 'hello there', contactId: contact.id, sendAt: new Date(Date.now() - 20_000).toISOString() })).status).toBe(201);
    expect((await post({ body: 'hello there', contactId: 999_999, sendAt: inHours(1) })).body.error).toBe('ERR_NO_CONTACT_FOUND');
    expect((await t.request('POST', '/schedules', { token: adminSession.token, body: '{bad' })).body.error).toBe('ERR_INVALID_JSON');
    expect((await t.request('POST', '/schedules', { body: {} })).status).toBe(401);
  });

  it('a ticketId must be a ticket of the same contact in the company', async () => {
    const { company, adminSession, contact } = await setup();
    const other = await seedContact(company.id);
    const ticket = await tenant(t.db, company.id).insertInto('tickets', { uuid: `u-${++seq}-${Date.now()}`, contactId: contact.id, status: 'open' }).returningAll().executeTakeFirstOrThrow();
    const post = (body: object) => t.request('POST', '/schedules', { token: adminSession.token, body: { body: 'hello there', sendAt: inHours(2), ...body } });
    expect((await post({ contactId: contact.id, ticketId: ticket.id })).body.ticketId).toBe(ticket.id);
    expect((await post({ contactId: other.id, ticketId: ticket.id })).status).toBe(400);
    expect((await post({ contactId: contact.id, ticketId: 999_999 })).body.error).toBe('ERR_NO_TICKET_FOUND');
  });

  it('GET /schedules pages, counts, searches and filters by contact; users see only their own', async () => {
    const { company, adminSession, userSession, user, contact } = await setup();
    const joao = await seedContact(company.id, 'João Pereira');
    const post = (token: string, body: string, contactId: number, h: number) =>
      t.request('POST', '/schedules', { token, body: { body, contactId, sendAt: inHours(h) } });
    for (let i = 0; i < 22; i++) await post(adminSession.token, `Lembrete número ${i}`, contact.id, i + 1);
    await post(userSession.token, 'Mensagem do atendente 50%', joao.id, 30);
    const page1 = await t.request('GET', '/schedules', { token: adminSession.token });
    expect(page1.status).toBe(200);
    expect(page1.body.count).toBe(23);
    expect(page1.body.hasMore).toBe(true);
    expect(page1.body.schedules).toHaveLength(20);
    // Soonest first.
    expect(page1.body.schedules[0].body).toBe('Lembrete número 0');
    const page2 = await t.request('GET', '/schedules?pageNumber=2', { token: adminSession.token });
    expect(page2.body).toMatchObject({ count: 23, hasMore: false });
    expect(page2.body.schedules).toHaveLength(3);
    const byName = await t.request('GET', `/schedules?searchParam=${encodeURIComponent('joão')}`, { token: adminSession.token });
    expect(byName.body.schedules.map((s: { body: string }) => s.body)).toEqual(['Mensagem do atendente 50%']);
    expect((await t.request('GET', '/schedules?searchParam=50%25', { token: adminSession.token })).body.count).toBe(1);
    expect((await t.request('GET', '/schedules?searchParam=número%201', { token: adminSession.token })).body.count).toBe(11);
    expect((await t.request('GET', `/schedules?contactId=${joao.id}`, { token: adminSession.token })).body.count).toBe(1);
    const mine = await t.request('GET', '/schedules', { token: userSession.token });
    expect(mine.body.count).toBe(1);
    expect(mine.body.schedules[0]).toMatchObject({ userId: user.id, contact: { name: 'João Pereira' } });
    // An admin's schedule is not found for the attendant, on every route.
    const adminsId = page1.body.schedules[0].id;
    for (const [method, path] of [['GET', `/schedules/${adminsId}`], ['PUT', `/schedules/${adminsId}`], ['DELETE', `/schedules/${adminsId}`], ['DELETE', `/schedules/${adminsId}/media-upload`]] as const) {
      const res = await t.request(method, path, { token: userSession.token, body: method === 'PUT' ? { body: 'changed body' } : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await t.request('GET', '/schedules?pageNumber=0', { token: adminSession.token })).status).toBe(400);
  });

  it('PUT /schedules/:id changes an unsent schedule and bumps the version; a sent one is refused', async () => {
    const { company, adminSession, contact } = await setup();
    const other = await seedContact(company.id, 'Pedro Lima');
    const created = (await t.request('POST', '/schedules', { token: adminSession.token, body: { body: 'first version', contactId: contact.id, sendAt: inHours(1) } })).body;
    const sendAt = inHours(5);
    const res = await t.request('PUT', `/schedules/${created.id}`, { token: adminSession.token, body: { body: 'second version', contactId: other.id, sendAt } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, body: 'second version', contactId: other.id, contact: { name: 'Pedro Lima' }, sendAt, version: 2, status: 'PENDENTE' });
    expect(res.body.updatedAt >= created.updatedAt).toBe(true);
    expect((await t.request('PUT', `/schedules/${created.id}`, { token: adminSession.token, body: { body: 'abc' } })).body.issues).toContainEqual({ path: 'body', message: 'Mensagem muito curta' });
    expect((await t.request('PUT', `/schedules/${created.id}`, { token: adminSession.token, body: { contactId: 999_999 } })).status).toBe(404);
    // A failed schedule goes back to PENDENTE when edited: that is how a user retries it.
    const t2 = tenant(t.db, company.id);
    await t2.updateTable('schedules').set({ status: 'ERRO', error: 'ERR_NO_DEF_WAPP_FOUND', claimedAt: new Date().toISOString(), claimedBy: 'x', ...bumpVersion() }).where('id', '=', created.id).execute();
    const retried = await t.request('PUT', `/schedules/${created.id}`, { token: adminSession.token, body: { body: 'third version' } });
    expect(retried.body).toMatchObject({ status: 'PENDENTE', error: null, version: 4 }); // 3 was the failure above
    // In the sending job's hands, or sent: refused.
    await t2.updateTable('schedules').set({ claimedAt: new Date().toISOString(), claimedBy: 'job' }).where('id', '=', created.id).execute();
    expect((await t.request('PUT', `/schedules/${created.id}`, { token: adminSession.token, body: { body: 'fourth version' } })).status).toBe(400);
    await t2.updateTable('schedules').set({ status: 'ENVIADA', sentAt: new Date().toISOString(), ...bumpVersion() }).where('id', '=', created.id).execute();
    const sent = await t.request('PUT', `/schedules/${created.id}`, { token: adminSession.token, body: { body: 'fourth version' } });
    expect(sent.status).toBe(400);
    expect(sent.body.error).toBe('ERR_VALIDATION');
    expect((await t.request('GET', `/schedules/${created.id}`, { token: adminSession.token })).body.body).toBe('third version');
  });

  it('DELETE /schedules/:id removes it; an unknown id is 404', async () => {
    const { adminSession, contact } = await setup();
    const created = (await t.request('POST', '/schedules', { token: adminSession.token, body: { body: 'to be deleted', contactId: contact.id, sendAt: inHours(1) } })).body;
    const res = await t.request('DELETE', `/schedules/${created.id}`, { token: adminSession.token });
    expect(res.status).toBe(200);
    expect((await t.request('GET', `/schedules/${created.id}`, { token: adminSession.token })).status).toBe(404);
    expect((await t.request('DELETE', `/schedules/${created.id}`, { token: adminSession.token })).status).toBe(404);
    expect((await t.request('GET', '/schedules/abc', { token: adminSession.token })).status).toBe(404);
  });

  it('a plan without schedules refuses every route with 403', async () => {
    const { adminSession } = await seedTenant(t, { useSchedules: 0 });
    expect((await t.request('GET', '/schedules', { token: adminSession.token })).status).toBe(403);
    expect((await t.request('POST', '/schedules', { token: adminSession.token, body: {} })).body.error).toBe('ERR_NO_PERMISSION');
  });

  it("another company's schedules and contacts are refused everywhere", async () => {
    const a = await setup();
    const b = await setup();
    const theirs = (await t.request('POST', '/schedules', { token: b.adminSession.token, body: { body: 'company B only', contactId: b.contact.id, sendAt: inHours(1) } })).body;
    const token = a.adminSession.token;
    for (const [method, path] of [['GET', `/schedules/${theirs.id}`], ['PUT', `/schedules/${theirs.id}`], ['DELETE', `/schedules/${theirs.id}`], ['DELETE', `/schedules/${theirs.id}/media-upload`], ['GET', `/schedules/${theirs.id}/media`]] as const) {
      const res = await t.request(method, path, { token, body: method === 'PUT' ? { body: 'hijacked!' } : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const upload = new FormData();
    upload.set('file', new File([PNG], 'x.png', { type: 'image/png' }));
    expect((await t.app.request(`/schedules/${theirs.id}/media-upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: upload })).status).toBe(404);
    expect((await t.request('GET', '/schedules', { token })).body.count).toBe(0);
    expect((await t.request('POST', '/schedules', { token, body: { body: 'their contact', contactId: b.contact.id, sendAt: inHours(1) } })).status).toBe(404);
    expect((await t.request('GET', `/schedules/${theirs.id}`, { token: b.adminSession.token })).body.body).toBe('company B only');
  });

  it('media upload takes png/jpg/jpeg up to 2 MB, replaces and deletes the file', async () => {
    const { company, adminSession, contact } = await setup();
    const created = (await t.request('POST', '/schedules', { token: adminSession.token, body: { body: 'with an image', contactId: contact.id, sendAt: inHours(1) } })).body;
    const upload = (bytes: Uint8Array<ArrayBuffer>, name: string) => {
      const form = new FormData();
      form.set('file', new File([bytes], name));
      return t.app.request(`/schedules/${created.id}/media-upload`, { method: 'POST', headers: { authorization: `Bearer ${adminSession.token}` }, body: form });
    };
    const res = await upload(PNG, 'photo.png');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { mediaPath: string; mediaName: string; version: number };
    expect(body).toMatchObject({ mediaName: 'photo.png', version: 2 });
    expect(body.mediaPath.startsWith(`${company.id}/schedules/`)).toBe(true);
    const file = await t.app.request(`/schedules/${created.id}/media`, { headers: { authorization: `Bearer ${adminSession.token}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
    expect((await upload(new TextEncoder().encode('not an image'), 'notes.txt')).status).toBe(415);
    expect((await upload(PNG, 'photo.gif')).status).toBe(415);
    const big = new Uint8Array(2 * 1024 * 1024 + 10);
    big.set(JPEG);
    expect((await upload(big, 'big.jpg')).status).toBe(413);
    const jpg = await upload(JPEG, 'me.jpeg');
    expect(jpg.status).toBe(200);
    const replaced = (await jpg.json()) as { mediaPath: string };
    const { existsSync } = await import('node:fs');
    const path = await import('node:path');
    // The replaced image goes once the write commits, just after the answer (an after-commit effect).
    await expect.poll(() => existsSync(path.join(t.deps.config.mediaDir, body.mediaPath))).toBe(false);
    expect(existsSync(path.join(t.deps.config.mediaDir, replaced.mediaPath))).toBe(true);
    const del = await t.request('DELETE', `/schedules/${created.id}/media-upload`, { token: adminSession.token });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ mediaPath: null, mediaName: null });
    await expect.poll(() => existsSync(path.join(t.deps.config.mediaDir, replaced.mediaPath))).toBe(false);
    expect((await t.request('GET', `/schedules/${created.id}/media`, { token: adminSession.token })).status).toBe(404);
  });

  it('an attendant manages their own schedules', async () => {
    const { company, contact } = await setup();
    const attendant = await seedUser(t, company.id);
    const session = await loginAs(t, attendant);
    const created = await t.request('POST', '/schedules', { token: session.token, body: { body: 'my own reminder', contactId: contact.id, sendAt: inHours(1) } });
    expect(created.status).toBe(201);
    expect((await t.request('PUT', `/schedules/${created.body.id}`, { token: session.token, body: { body: 'my own reminder 2' } })).status).toBe(200);
    expect((await t.request('DELETE', `/schedules/${created.body.id}`, { token: session.token })).status).toBe(200);
  });
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70]);
