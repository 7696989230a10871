import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { loginAs, seedTenant, seedUser } from '../../../test/seed.ts';

describe.each(DIALECTS)('quick messages on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const create = (token: string, body: unknown) => t.request('POST', '/quick-messages', { token, body });

  it('creates, reads, searches, pages, updates and deletes', async () => {
    const { userSession, user } = await seedTenant(t);
    const token = userSession.token;
    const created = await create(token, { shortcode: 'hello', message: 'Hello, how can I help?' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ shortcode: 'hello', message: 'Hello, how can I help?', geral: false, status: true, isMedia: false, mediaPath: null, userId: user.id });
    await create(token, { shortcode: 'bye', message: 'Goodbye', status: false });
    const search = await t.request('GET', `/quick-messages?searchParam=HOW&userId=${user.id}`, { token });
    expect(search.body).toEqual({ hasMore: false, records: [expect.objectContaining({ id: created.body.id })] });
    const byCode = await t.request('GET', '/quick-messages?searchParam=by', { token });
    expect(byCode.body.records.map((r: { shortcode: string }) => r.shortcode)).toEqual(['bye']);
    // Accents and case are ignored both ways.
    const promo = await create(token, { shortcode: 'promoção', message: 'Atenção: PROMOÇÃO de Natal' });
    const folded = await t.request('GET', `/quick-messages?searchParam=${encodeURIComponent('promocao')}`, { token });
    expect(folded.body.records.map((r: { id: number }) => r.id)).toEqual([promo.body.id]);
    expect((await t.request('GET', `/quick-messages?searchParam=${encodeURIComponent('ATENCÃO')}`, { token })).body.records.map((r: { id: number }) => r.id)).toEqual([promo.body.id]);
    await t.request('DELETE', `/quick-messages/${promo.body.id}`, { token });
    // The "/" quick answers list the active ones only.
    const usable = await t.request('GET', `/quick-messages/list?companyId=1&userId=${user.id}`, { token });
    expect(usable.body.map((r: { shortcode: string }) => r.shortcode)).toEqual(['hello']);

    const updated = await t.request('PUT', `/quick-messages/${created.body.id}`, { token, body: { message: 'Hi!', geral: true } });
    expect(updated.body).toMatchObject({ message: 'Hi!', geral: true, shortcode: 'hello' });
    const row = await t.db.selectFrom('quickMessages').select('version').where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(row.version).toBe(2);
    expect((await t.request('GET', `/quick-messages/${created.body.id}`, { token })).body.message).toBe('Hi!');
    expect((await t.request('DELETE', `/quick-messages/${created.body.id}`, { token })).status).toBe(200);
    expect((await t.request('GET', `/quick-messages/${created.body.id}`, { token })).status).toBe(404);

    for (let i = 0; i < 21; i++) await create(token, { shortcode: `code${String(i).padStart(2, '0')}` });
    const page1 = await t.request('GET', '/quick-messages?searchParam=code', { token });
    expect(page1.body.records).toHaveLength(20);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await t.request('GET', '/quick-messages?searchParam=code&pageNumber=2', { token });
    expect(page2.body).toMatchObject({ hasMore: false, records: [expect.objectContaining({ shortcode: 'code20' })] });
  });

  it('requires the shortcode and checks types', async () => {
    const { userSession } = await seedTenant(t);
    const token = userSession.token;
    const missing = await create(token, { message: 'no code' });
    expect(missing.status).toBe(400);
    expect(missing.body.issues).toEqual([{ path: 'shortcode', message: 'Obrigatório' }]);
    expect((await create(token, { shortcode: '   ' })).body.issues[0].message).toBe('Obrigatório');
    expect((await create(token, { shortcode: 'x', geral: 'maybe' })).status).toBe(400);
    expect((await create(token, '[1,')).body.error).toBe('ERR_INVALID_JSON');
    expect((await t.request('PUT', '/quick-messages/abc', { token, body: {} })).status).toBe(404);
  });

  it('keeps private messages private and shares geral ones with the company', async () => {
    const { company, user, userSession, adminSession } = await seedTenant(t);
    const colleague = await loginAs(t, await seedUser(t, company.id));
    const mine = await create(userSession.token, { shortcode: 'mine', message: 'private' });
    const shared = await create(userSession.token, { shortcode: 'shared', message: 'for all', geral: true });

    for (const session of [colleague, adminSession]) {
      const list = await t.request('GET', '/quick-messages', { token: session.token });
      expect(list.body.records.map((r: { id: number }) => r.id)).toEqual([shared.body.id]);
      const usable = await t.request('GET', '/quick-messages/list', { token: session.token });
      expect(usable.body.map((r: { id: number }) => r.id)).toEqual([shared.body.id]);
      expect((await t.request('GET', `/quick-messages/${mine.body.id}`, { token: session.token })).status).toBe(404);
      expect((await t.request('PUT', `/quick-messages/${mine.body.id}`, { token: session.token, body: { message: 'x' } })).status).toBe(404);
      expect((await t.request('DELETE', `/quick-messages/${mine.body.id}`, { token: session.token })).status).toBe(404);
    }
    // Asking for someone else's list by userId shows nothing of theirs.
    const asked = await t.request('GET', `/quick-messages?userId=${user.id}`, { token: colleague.token });
    expect(asked.body.records.map((r: { id: number }) => r.id)).toEqual([shared.body.id]);
    // A shared one is read by all, changed by its author or an admin only.
    expect((await t.request('GET', `/quick-messages/${shared.body.id}`, { token: colleague.token })).status).toBe(200);
    expect((await t.request('PUT', `/quick-messages/${shared.body.id}`, { token: colleague.token, body: { message: 'x' } })).status).toBe(403);
    expect((await t.request('PUT', `/quick-messages/${shared.body.id}`, { token: adminSession.token, body: { message: 'edited' } })).status).toBe(200);
    const own = await t.request('GET', '/quick-messages', { token: userSession.token });
    expect(own.body.records.map((r: { shortcode: string }) => r.shortcode)).toEqual(['mine', 'shared']);
  });

  it('refuses another company quick messages', async () => {
    const mine = await seedTenant(t);
    const theirs = await seedTenant(t);
    const shared = await create(theirs.adminSession.token, { shortcode: 'theirs', geral: true });
    const token = mine.adminSession.token;
    expect((await t.request('GET', `/quick-messages/${shared.body.id}`, { token })).status).toBe(404);
    expect((await t.request('PUT', `/quick-messages/${shared.body.id}`, { token, body: { message: 'x' } })).status).toBe(404);
    expect((await t.request('DELETE', `/quick-messages/${shared.body.id}`, { token })).status).toBe(404);
    expect((await t.request('DELETE', `/quick-messages/${shared.body.id}/media-upload`, { token })).status).toBe(404);
    expect((await t.request('GET', '/quick-messages/list', { token })).body).toEqual([]);
  });
});
