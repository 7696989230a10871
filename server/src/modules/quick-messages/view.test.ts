// One read model (issue 12): for the same quick message, GET /quick-messages/{id} and the value the
// sync views put at `quickMessage/<id>` are the same object, and both are what `quickMessageSchema`
// describes, for a shared one with an attachment and for a user's own.
import { quickMessageSchema } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';
import { pullValue } from '../../../test/read-model.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

describe.each(DIALECTS)('quick message read model on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  async function upload(token: string, id: number) {
    const form = new FormData();
    form.append('typeArch', 'quickMessage');
    form.append('file', new Blob([new Uint8Array(PNG)]), 'logo.png');
    const res = await t.app.request(`/quick-messages/${id}/media-upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(res.status).toBe(200);
  }

  it('REST and sync send the same quick message, and it parses with quickMessageSchema', async () => {
    const { adminSession, userSession } = await seedTenant(t);
    const shared = (await t.request('POST', '/quick-messages', { token: adminSession.token, body: { shortcode: 'hello', message: 'Hello!', geral: true } })).body;
    await upload(adminSession.token, shared.id);
    const own = (await t.request('POST', '/quick-messages', { token: userSession.token, body: { shortcode: 'bye', message: 'Bye!', status: false } })).body;

    const cases = [
      { token: adminSession.token, id: shared.id, expected: { geral: true, isMedia: true, mediaName: 'logo.png' } },
      { token: userSession.token, id: shared.id, expected: { geral: true, isMedia: true } },
      { token: userSession.token, id: own.id, expected: { geral: false, status: false, isMedia: false, mediaPath: null } },
    ];
    for (const { token, id, expected } of cases) {
      const rest = (await t.request('GET', `/quick-messages/${id}`, { token })).body;
      expect(rest).toMatchObject({ id, ...expected });
      expect(await pullValue(t, token, `quickMessage/${id}`)).toEqual(rest);
      expect(quickMessageSchema.parse(rest)).toEqual(rest);
    }
  });
});
