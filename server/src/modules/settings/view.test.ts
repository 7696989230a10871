// One read model (issue 12): GET /settings and the setting/<key> values a user pulls are the same
// list, defaults of keys without a row included, each one the wire schema; a write reaches both.
import { DEFAULT_SETTINGS, SETTING_KEYS, settingSchema } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenant } from '../../db/tenant.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { syncClient } from '../../../test/read-model.ts';
import { seedTenant } from '../../../test/seed.ts';

describe.each(DIALECTS)('the settings read model on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('sends the same settings over REST and sync, defaults included', async () => {
    const { company, adminSession, userSession } = await seedTenant(t);
    // A company without a row for a key (created before the key existed) still shows its default.
    await tenant(t.db, company.id).deleteFrom('settings').where('key', '=', 'asaas').execute();
    const sync = syncClient(t, userSession.token);
    const rest = async () => {
      const res = await t.request('GET', '/settings', { token: userSession.token });
      expect(res.status).toBe(200);
      return res.body as { key: string; value: string }[];
    };
    const synced = (puts: Map<string, unknown>) => [...puts].filter(([key]) => key.startsWith('setting/'));

    const first = await sync.pull();
    const listed = await rest();
    expect(listed).toHaveLength(SETTING_KEYS.length);
    expect(Object.fromEntries(synced(first.puts))).toEqual(Object.fromEntries(listed.map((s) => [`setting/${s.key}`, s])));
    expect(first.puts.get('setting/asaas')).toEqual({ key: 'asaas', value: DEFAULT_SETTINGS.asaas });
    for (const s of listed) expect(settingSchema.parse(s)).toEqual(s);

    // Writing the missing key and changing another: both reach the next pull as REST lists them.
    expect((await t.request('PUT', '/settings/asaas', { token: adminSession.token, body: { value: 'enabled' } })).status).toBe(200);
    expect((await t.request('PUT', '/settings/userRating', { token: adminSession.token, body: { value: 'enabled' } })).status).toBe(200);
    const next = await sync.pull();
    const after = await rest();
    expect(Object.fromEntries(synced(next.puts))).toEqual({
      'setting/asaas': after.find((s) => s.key === 'asaas'),
      'setting/userRating': after.find((s) => s.key === 'userRating'),
    });
    expect(next.puts.get('setting/asaas')).toEqual({ key: 'asaas', value: 'enabled' });
  });
});
