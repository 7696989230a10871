// File lists over HTTP against the real app (spec/03 §7 "Files"): the contract of every call with
// the options' uploads (stored like attachments, checked by the upload rules), who may call them,
// and another company's ids answered as not found.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

describe.each(DIALECTS)('file lists on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  }, 180_000);
  afterAll(async () => t.close());

  type Part = { name: string; bytes: Buffer | string; type?: string };
  async function uploadList(token: string, fileId: number, files: Part[], fields: [string, string][]) {
    const form = new FormData();
    form.append('fileId', String(fileId));
    form.append('typeArch', 'fileList');
    for (const [k, v] of fields) form.append(k, v);
    for (const f of files) form.append('files', new Blob([typeof f.bytes === 'string' ? f.bytes : new Uint8Array(f.bytes)], f.type ? { type: f.type } : {}), f.name);
    const res = await t.app.request(`/files/uploadList/${fileId}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    return { status: res.status, body: await res.json() };
  }
  const onDisk = (rel: string) => existsSync(path.join(t.deps.config.mediaDir, rel));
  const storedPaths = async (fileId: number) => (await t.db.selectFrom('filesOptions').select('path').where('fileId', '=', fileId).orderBy('id').execute()).map((r) => r.path);

  it('creates a list with options, attaches a file to each, serves them, edits the options and deletes the list with its files', async () => {
    const { company, adminSession } = await seedTenant(t);
    const token = adminSession.token;
    // The screen is REST that reads itself again on a poke: every committed write pokes the company.
    const pokes = vi.spyOn(t.deps.realtime, 'pokeCompany');
    const created = await t.request('POST', '/files', { token, body: { name: '  Price list ', message: 'Here it is', options: [{ name: 'Logo' }, { name: 'Brochure' }], userId: 1 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Price list', message: 'Here it is', options: [{ name: 'Logo', path: '', mediaType: null, url: null }, { name: 'Brochure', path: '' }] });
    const id = created.body.id as number;
    expect(pokes).toHaveBeenCalledWith(company.id);
    pokes.mockRestore();
    const [logo, brochure] = created.body.options as { id: number }[];

    const up = await uploadList(token, id, [{ name: 'logo.png', bytes: PNG, type: 'image/png' }, { name: 'brochure.pdf', bytes: '%PDF-1.4 test' }], [['id', String(logo!.id)], ['id', String(brochure!.id)], ['mediaType', 'image'], ['mediaType', 'application']]);
    expect(up.status).toBe(200);
    expect(up.body.options).toEqual([
      { id: logo!.id, name: 'Logo', path: 'logo.png', mediaType: 'image', url: `/files/${id}/options/${logo!.id}/media` },
      { id: brochure!.id, name: 'Brochure', path: 'brochure.pdf', mediaType: 'application', url: `/files/${id}/options/${brochure!.id}/media` },
    ]);
    const paths = await storedPaths(id);
    expect(paths[0]).toMatch(new RegExp(`^${company.id}/files/${id}/.+logo\\.png$`));
    expect(paths.every((p) => onDisk(p))).toBe(true);
    const served = await t.app.request(up.body.options[0].url, { headers: { authorization: `Bearer ${token}` } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);

    // A new file for an option replaces its old one, which leaves the disk after the commit.
    await uploadList(token, id, [{ name: 'logo2.png', bytes: PNG }], [['id', String(logo!.id)]]);
    await expect.poll(() => onDisk(paths[0]!)).toBe(false);

    const page = await t.request('GET', '/files?searchParam=price&pageNumber=1', { token });
    expect(page.body).toMatchObject({ hasMore: false, files: [{ id, name: 'Price list', options: [{ path: 'logo2.png' }, { path: 'brochure.pdf' }] }] });
    expect((await t.request('GET', `/files/?companyId=${company.id}`, { token })).body.files).toHaveLength(1);
    expect((await t.request('GET', `/files/${id}`, { token })).body.options).toHaveLength(2);

    // The given options become the list's: Logo renamed, Brochure dropped (its file goes), Video added.
    const before = await storedPaths(id);
    const edited = await t.request('PUT', `/files/${id}`, { token, body: { name: 'Prices', userId: 5, options: [{ id: logo!.id, name: 'Our logo', path: 'logo2.png' }, { name: 'Video' }] } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Prices', message: 'Here it is', options: [{ id: logo!.id, name: 'Our logo', path: 'logo2.png' }, { name: 'Video', path: '' }] });
    await expect.poll(() => onDisk(before[1]!)).toBe(false);
    const versions = await t.db.selectFrom('files').select('version').where('id', '=', id).executeTakeFirstOrThrow();
    expect(versions.version).toBeGreaterThan(1);

    const kept = (await storedPaths(id))[0]!;
    expect((await t.request('DELETE', `/files/${id}`, { token })).body).toEqual({ message: 'File list deleted' });
    expect((await t.request('GET', `/files/${id}`, { token })).status).toBe(404);
    await expect.poll(() => onDisk(kept)).toBe(false);
    expect(await t.db.selectFrom('filesOptions').select('id').where('fileId', '=', id).execute()).toEqual([]);
  });

  it('validates the list and refuses bad uploads with catalogue errors, keeping nothing', async () => {
    const { adminSession } = await seedTenant(t);
    const token = adminSession.token;
    expect((await t.request('POST', '/files', { token, body: { name: 'ab', message: 'x' } })).body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'name' }] });
    expect((await t.request('POST', '/files', { token, body: { name: 'Fine' } })).body.issues[0].path).toBe('message');
    expect((await t.request('POST', '/files', { token, body: { name: 'Fine', message: 'ok', options: [{ name: '' }] } })).body.issues[0].path).toBe('options.0.name');
    expect((await t.request('POST', '/files', { token, body: 'not json' })).body.error).toBe('ERR_INVALID_JSON');
    const list = (await t.request('POST', '/files', { token, body: { name: 'Uploads', message: 'm', options: [{ name: 'One' }] } })).body;
    const option = String(list.options[0].id);
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const cases: [Part[], [string, string][], number, string][] = [
      [[{ name: 'big.png', bytes: big }], [['id', option]], 413, 'ERR_PAYLOAD_TOO_LARGE'],
      [[{ name: 'run.exe', bytes: 'MZ' }], [['id', option]], 415, 'ERR_UNSUPPORTED_MEDIA_TYPE'],
      [[{ name: 'page.html', bytes: '<html>' }], [['id', option]], 415, 'ERR_UNSUPPORTED_MEDIA_TYPE'],
      [[{ name: 'fake.pdf', bytes: '#!/bin/sh' }], [['id', option]], 415, 'ERR_UNSUPPORTED_MEDIA_TYPE'],
      [[{ name: 'movie.avi', bytes: 'x' }], [['id', option]], 415, 'ERR_UNSUPPORTED_MEDIA_TYPE'],
      [[{ name: 'a.png', bytes: PNG }], [], 400, 'ERR_VALIDATION'],
      [[{ name: 'a.png', bytes: PNG }], [['id', 'abc']], 400, 'ERR_VALIDATION'],
      [[{ name: 'a.png', bytes: PNG }], [['id', '999999']], 400, 'ERR_VALIDATION'],
      [[], [['id', option]], 400, 'ERR_VALIDATION'],
    ];
    for (const [files, fields, status, error] of cases) {
      const res = await uploadList(token, list.id, files, fields);
      expect([files[0]?.name, res.status, res.body.error]).toEqual([files[0]?.name, status, error]);
    }
    const json = await t.request('POST', `/files/uploadList/${list.id}`, { token, body: { files: [] } });
    expect([json.status, json.body.error]).toEqual([415, 'ERR_UNSUPPORTED_MEDIA_TYPE']);
    expect(await storedPaths(list.id)).toEqual(['']);
    expect((await t.request('PUT', `/files/${list.id}`, { token, body: { options: [{ id: 999999, name: 'x' }] } })).body.issues[0].path).toBe('options.0.id');
  });

  it('pages 20 lists at a time and keeps the screen to admins', async () => {
    const { adminSession, userSession } = await seedTenant(t);
    const token = adminSession.token;
    for (let i = 0; i < 21; i++) await t.request('POST', '/files', { token, body: { name: `List ${String(i).padStart(2, '0')}`, message: 'm' } });
    const first = await t.request('GET', '/files?pageNumber=1', { token });
    expect([first.body.files.length, first.body.hasMore]).toEqual([20, true]);
    expect((await t.request('GET', '/files?pageNumber=2', { token })).body).toMatchObject({ hasMore: false, files: [{ name: 'List 20' }] });
    expect((await t.request('GET', '/files', { token })).body.files).toHaveLength(21);
    const id = first.body.files[0].id;
    for (const [method, url, body] of [['GET', '/files'], ['GET', `/files/${id}`], ['POST', '/files', { name: 'Mine', message: 'm' }], ['PUT', `/files/${id}`, { name: 'Mine' }], ['DELETE', `/files/${id}`]] as [string, string, unknown?][]) {
      const res = await t.request(method, url, { token: userSession.token, body });
      expect([url, res.status, res.body.error]).toEqual([url, 403, 'ERR_NO_PERMISSION']);
    }
    const up = await uploadList(userSession.token, id, [{ name: 'a.png', bytes: PNG }], [['id', '1']]);
    expect([up.status, up.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);
  });

  it("answers another company's lists, options and files as not found", async () => {
    const mine = await seedTenant(t);
    const theirs = await seedTenant(t);
    const list = (await t.request('POST', '/files', { token: theirs.adminSession.token, body: { name: 'Theirs', message: 'm', options: [{ name: 'Pic' }] } })).body;
    const optionId = list.options[0].id as number;
    await uploadList(theirs.adminSession.token, list.id, [{ name: 'pic.png', bytes: PNG }], [['id', String(optionId)]]);
    const token = mine.adminSession.token;
    for (const [method, url, body] of [
      ['GET', `/files/${list.id}`],
      ['PUT', `/files/${list.id}`, { name: 'Mine now' }],
      ['DELETE', `/files/${list.id}`],
      ['GET', `/files/${list.id}/options/${optionId}/media`],
      ['GET', '/files/abc'],
    ] as [string, string, unknown?][]) {
      const res = await t.request(method, url, { token, body });
      expect([url, res.status, res.body.error]).toEqual([url, 404, 'ERR_NOT_FOUND']);
    }
    const up = await uploadList(token, list.id, [{ name: 'a.png', bytes: PNG }], [['id', String(optionId)]]);
    expect([up.status, up.body.error]).toEqual([404, 'ERR_NOT_FOUND']);
    // A list of mine cannot take another list's option either.
    const own = (await t.request('POST', '/files', { token, body: { name: 'Mine', message: 'm', options: [{ name: 'A' }] } })).body;
    expect((await uploadList(token, own.id, [{ name: 'a.png', bytes: PNG }], [['id', String(optionId)]])).body.error).toBe('ERR_VALIDATION');
    expect((await t.request('GET', '/files', { token })).body.files.map((f: { name: string }) => f.name)).toEqual(['Mine']);
    expect((await t.request('GET', `/files/${list.id}`, { token: theirs.adminSession.token })).body).toMatchObject({ name: 'Theirs', options: [{ path: 'pic.png' }] });
  });
});
