import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedSuper, seedTenant } from '../../../test/seed.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const JPEG = Buffer.from('ffd8ffe000104a464946', 'hex');

describe.each(DIALECTS)('announcements on %s', (dialect) => {
  let t: TestApp;
  let superToken: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    superToken = (await seedSuper(t)).session.token;
  });
  afterAll(async () => t.close());

  const create = (body: unknown, token = superToken) => t.request('POST', '/announcements', { token, body });
  async function upload(token: string, id: number, name: string, bytes: Buffer | string) {
    const form = new FormData();
    form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name);
    const res = await t.app.request(`/announcements/${id}/media-upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    return { status: res.status, body: await res.json() };
  }

  it('lets the super-admin create, update and delete; defaults priority 3 and status true', async () => {
    const created = await create({ title: 'Maintenance', text: 'Sunday 2am' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: 'Maintenance', text: 'Sunday 2am', priority: 3, status: true, mediaPath: null });
    const updated = await t.request('PUT', `/announcements/${created.body.id}`, { token: superToken, body: { priority: 1, status: false } });
    expect(updated.body).toMatchObject({ priority: 1, status: false, title: 'Maintenance' });
    const row = await t.db.selectFrom('announcements').select('version').where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(row.version).toBe(2);
    expect((await t.request('DELETE', `/announcements/${created.body.id}`, { token: superToken })).status).toBe(200);
    expect((await t.request('GET', `/announcements/${created.body.id}`, { token: superToken })).status).toBe(404);
  });

  it('validates title, text and priority', async () => {
    const missing = await create({ text: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.issues[0].path).toBe('title');
    expect((await create({ title: 'x', text: '   ' })).body.issues[0].path).toBe('text');
    expect((await create({ title: 'x', text: 'y', priority: 4 })).body.issues[0].path).toBe('priority');
    expect((await create({ title: 'x', text: 'y', priority: 0 })).status).toBe(400);
    expect((await create('{"title"')).body.error).toBe('ERR_INVALID_JSON');
  });

  it('shows every company the active announcements; only the super-admin sees inactive ones and changes any', async () => {
    const active = await create({ title: `Active ${Date.now()}`, text: 'for everyone', priority: 2 });
    const hidden = await create({ title: `Hidden ${Date.now()}`, text: 'draft', status: false });
    const { adminSession, userSession } = await seedTenant(t);
    for (const token of [adminSession.token, userSession.token]) {
      const list = await t.request('GET', '/announcements?searchParam=' + encodeURIComponent(active.body.title), { token });
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ count: 1, hasMore: false, records: [{ id: active.body.id, priority: 2 }] });
      const all = await t.request('GET', '/announcements/', { token });
      expect(all.body.records.map((r: { id: number }) => r.id)).not.toContain(hidden.body.id);
      expect((await t.request('GET', `/announcements/${active.body.id}`, { token })).status).toBe(200);
      expect((await t.request('GET', `/announcements/${hidden.body.id}`, { token })).status).toBe(404);
      expect((await create({ title: 'mine', text: 'x' }, token)).status).toBe(403);
      expect((await t.request('PUT', `/announcements/${active.body.id}`, { token, body: { title: 'x' } })).status).toBe(403);
      expect((await t.request('DELETE', `/announcements/${active.body.id}`, { token })).status).toBe(403);
      expect((await upload(token, active.body.id, 'a.png', PNG)).status).toBe(403);
      expect((await t.request('DELETE', `/announcements/${active.body.id}/media-upload`, { token })).status).toBe(403);
    }
    const superList = await t.request('GET', '/announcements', { token: superToken });
    expect(superList.body.records.map((r: { id: number }) => r.id)).toEqual(expect.arrayContaining([active.body.id, hidden.body.id]));
  });

  it('pages newest first with count and hasMore', async () => {
    const tag = `Page${Date.now()}`;
    for (let i = 0; i < 21; i++) await create({ title: `${tag} ${i}`, text: 'x' });
    const first = await t.request('GET', `/announcements?searchParam=${tag}`, { token: superToken });
    expect(first.body.count).toBe(21);
    expect(first.body.records).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.records[0].title).toBe(`${tag} 20`);
    const second = await t.request('GET', `/announcements?searchParam=${tag}&pageNumber=2`, { token: superToken });
    expect(second.body).toMatchObject({ count: 21, hasMore: false, records: [{ title: `${tag} 0` }] });
  });

  it('takes png, jpg and jpeg pictures only, and removes the file with the picture', async () => {
    const a = (await create({ title: 'With picture', text: 'x' })).body;
    const png = await upload(superToken, a.id, 'banner.png', PNG);
    expect(png.status).toBe(200);
    expect(png.body).toMatchObject({ mediaName: 'banner.png' });
    expect(png.body.mediaPath).toMatch(/\/announcements\//);
    const onDisk = (rel: string) => existsSync(path.join(t.deps.config.mediaDir, rel));
    // A replaced or cleared picture leaves the disk after the commit (an effect), not before the answer.
    const gone = (rel: string) => vi.waitFor(() => expect(onDisk(rel)).toBe(false));
    expect(onDisk(png.body.mediaPath)).toBe(true);
    const { userSession } = await seedTenant(t);
    const served = await t.app.request(`/announcements/${a.id}/media`, { headers: { authorization: `Bearer ${userSession.token}` } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    const jpeg = await upload(superToken, a.id, 'photo.JPEG', JPEG);
    expect(jpeg.status).toBe(200);
    await gone(png.body.mediaPath);
    for (const [name, bytes] of [
      ['doc.pdf', '%PDF-1.4'],
      ['fake.png', 'not really a png'],
      ['photo.gif', PNG],
    ] as const) {
      const res = await upload(superToken, a.id, name, bytes);
      expect(res.status, name).toBe(415);
    }
    expect((await t.request('GET', `/announcements/${a.id}`, { token: superToken })).body.mediaPath).toBe(jpeg.body.mediaPath);
    const removed = await t.request('DELETE', `/announcements/${a.id}/media-upload`, { token: superToken });
    expect(removed.body).toMatchObject({ mediaPath: null, mediaName: null });
    await gone(jpeg.body.mediaPath);
    expect((await upload(superToken, 99999999, 'a.png', PNG)).status).toBe(404);
  });
});
