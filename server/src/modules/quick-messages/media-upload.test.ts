import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { loginAs, seedTenant, seedUser } from '../../../test/seed.ts';
import type { Actor } from '../../context.ts';
import { write } from '../../db/write.ts';
import { QUICK_MESSAGE_MEDIA_MAX_BYTES } from './routes.ts';
import { setQuickMessageMedia } from './service.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

describe.each(DIALECTS)('quick message media on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  async function upload(token: string, id: number, file: { name: string; bytes: Buffer | string } | null, extra: Record<string, string> = { typeArch: 'quickMessage' }) {
    const form = new FormData();
    for (const [k, v] of Object.entries(extra)) form.append(k, v);
    if (file) form.append('file', new Blob([typeof file.bytes === 'string' ? file.bytes : new Uint8Array(file.bytes)]), file.name);
    const res = await t.app.request(`/quick-messages/${id}/media-upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    return { status: res.status, body: await res.json() };
  }
  const onDisk = (rel: string) => existsSync(path.join(t.deps.config.mediaDir, rel));

  it('stores an attachment under the company folder, replaces it, and removes it', async () => {
    const { company, userSession } = await seedTenant(t);
    const token = userSession.token;
    const qm = (await t.request('POST', '/quick-messages', { token, body: { shortcode: 'pic' } })).body;
    const first = await upload(token, qm.id, { name: 'logo.png', bytes: PNG });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: qm.id, mediaName: 'logo.png', isMedia: true });
    expect(first.body.mediaPath).toMatch(new RegExp(`^${company.id}/quick-messages/.+logo\\.png$`));
    expect(onDisk(first.body.mediaPath)).toBe(true);
    const served = await t.app.request(`/quick-messages/${qm.id}/media`, { headers: { authorization: `Bearer ${token}` } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);

    const second = await upload(token, qm.id, { name: '../../report final.pdf', bytes: '%PDF-1.4 test' });
    expect(second.status).toBe(200);
    expect(second.body.mediaName).toBe('report final.pdf');
    expect(onDisk(second.body.mediaPath)).toBe(true);
    // A replaced or dropped file goes once the write commits, just after the answer (an after-commit effect).
    await expect.poll(() => onDisk(first.body.mediaPath)).toBe(false);

    const pdf = await t.app.request(`/quick-messages/${qm.id}/media`, { headers: { authorization: `Bearer ${token}` } });
    expect(pdf.headers.get('content-disposition')).toMatch(/^attachment; filename\*=UTF-8''report%20final\.pdf$/);
    const removed = await t.request('DELETE', `/quick-messages/${qm.id}/media-upload`, { token });
    expect(removed.body).toMatchObject({ mediaPath: null, mediaName: null, isMedia: false });
    await expect.poll(() => onDisk(second.body.mediaPath)).toBe(false);
    expect((await t.request('GET', `/quick-messages/${qm.id}/media`, { token })).status).toBe(404);

    const third = await upload(token, qm.id, { name: 'a.png', bytes: PNG });
    expect((await t.request('DELETE', `/quick-messages/${qm.id}`, { token })).status).toBe(200);
    await expect.poll(() => onDisk(third.body.mediaPath)).toBe(false);
  });

  it('refuses dangerous files, oversize files, a missing file and non-multipart bodies, writing nothing', async () => {
    const { company, userSession } = await seedTenant(t);
    const token = userSession.token;
    const qm = (await t.request('POST', '/quick-messages', { token, body: { shortcode: 'x' } })).body;
    for (const file of [
      { name: 'setup.exe', bytes: 'MZ\x90\x00' },
      { name: 'photo.jpg', bytes: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 1, 2]) },
      { name: 'page.txt', bytes: '<!DOCTYPE html><script>alert(1)</script>' },
      { name: 'image.svg', bytes: '<svg></svg>' },
      { name: 'run.sh', bytes: 'echo hi' },
    ]) {
      const res = await upload(token, qm.id, file);
      expect(res.status, file.name).toBe(415);
      expect(res.body.error).toBe('ERR_UNSUPPORTED_MEDIA_TYPE');
    }
    const big = await upload(token, qm.id, { name: 'big.pdf', bytes: Buffer.alloc(QUICK_MESSAGE_MEDIA_MAX_BYTES + 1) });
    expect(big.status).toBe(413);
    expect(big.body.error).toBe('ERR_PAYLOAD_TOO_LARGE');
    const none = await upload(token, qm.id, null);
    expect(none.status).toBe(400);
    expect(none.body.issues[0].path).toBe('file');
    const json = await t.request('POST', `/quick-messages/${qm.id}/media-upload`, { token, body: { file: 'x' } });
    expect(json.status).toBe(415);
    const broken = await t.app.request(`/quick-messages/${qm.id}/media-upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=zzz' },
      body: '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
    });
    expect(broken.status).toBe(400);
    const after = await t.request('GET', `/quick-messages/${qm.id}`, { token });
    expect(after.body).toMatchObject({ mediaPath: null, isMedia: false });
    const folder = path.join(t.deps.config.mediaDir, String(company.id), 'quick-messages');
    expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
  });

  it('an attachment write that rolls back keeps the old file, removes the new one and pokes no one', async () => {
    const { company, user, userSession } = await seedTenant(t);
    const token = userSession.token;
    const qm = (await t.request('POST', '/quick-messages', { token, body: { shortcode: 'undo' } })).body;
    const first = (await upload(token, qm.id, { name: 'old.png', bytes: PNG })).body;
    const folder = path.join(t.deps.config.mediaDir, String(company.id), 'quick-messages');
    const pokes = vi.spyOn(t.deps.realtime, 'pokeCompany');
    try {
      // The attachment is one step of a write that fails afterwards: nothing of it may remain.
      const actor: Actor = { companyId: company.id, userId: user.id, profile: 'user', super: false, sessionId: 'test' };
      await expect(
        write(t.deps, async (tx) => {
          await setQuickMessageMedia(tx, actor, qm.id, { name: 'new.png', bytes: PNG });
          throw new Error('a later step failed');
        }),
      ).rejects.toThrow('a later step failed');
      expect(readdirSync(folder)).toEqual([path.basename(first.mediaPath)]);
      expect((await t.request('GET', `/quick-messages/${qm.id}`, { token })).body).toMatchObject({ mediaPath: first.mediaPath, mediaName: 'old.png' });
      expect(pokes.mock.calls.filter(([id]) => id === company.id)).toEqual([]);
    } finally {
      pokes.mockRestore();
    }
  });

  it('lets only whoever may change the message attach to it', async () => {
    const { company, userSession } = await seedTenant(t);
    const colleague = await loginAs(t, await seedUser(t, company.id));
    const qm = (await t.request('POST', '/quick-messages', { token: userSession.token, body: { shortcode: 'private' } })).body;
    expect((await upload(colleague.token, qm.id, { name: 'a.png', bytes: PNG })).status).toBe(404);
    await upload(userSession.token, qm.id, { name: 'a.png', bytes: PNG });
    expect((await t.request('GET', `/quick-messages/${qm.id}/media`, { token: colleague.token })).status).toBe(404);
    const shared = (await t.request('POST', '/quick-messages', { token: userSession.token, body: { shortcode: 'shared', geral: true } })).body;
    expect((await upload(colleague.token, shared.id, { name: 'a.png', bytes: PNG })).status).toBe(403);
    expect((await t.request('DELETE', `/quick-messages/${shared.id}/media-upload`, { token: colleague.token })).status).toBe(403);
  });
});
