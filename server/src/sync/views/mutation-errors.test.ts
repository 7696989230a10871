// The sync protocol's own value (sync/src/domain/sync.ts): a refused mutation comes back to the
// client group that pushed it as mutationError/<clientID>/<mutationID>, in the wire schema, with the
// stored refusal's fields, and to no other group.
import { mutationErrorSchema } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';

describe.each(DIALECTS)('the mutation error read model on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const pull = async (token: string, clientGroupID: string) => {
    const res = await t.request('POST', '/sync/pull', { token, body: { pullVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID, cookie: null } });
    expect(res.status).toBe(200);
    return (res.body.patch as { op: string; key: string; value?: unknown }[]).filter((p) => p.op === 'put' && p.key.startsWith('mutationError/'));
  };

  it('puts the refusal in the pusher\'s group, in the wire schema', async () => {
    const { userSession } = await seedTenant(t);
    const mutation = { id: 1, clientID: `c-${dialect}`, name: 'updateSetting', args: { key: 'userRating', value: 'enabled' }, timestamp: Date.now() };
    const push = await t.request('POST', '/sync/push', {
      token: userSession.token,
      body: { pushVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID: `g-${dialect}`, mutations: [mutation] },
    });
    expect(push.status).toBe(200);

    const [put, ...more] = await pull(userSession.token, `g-${dialect}`);
    expect(more).toEqual([]);
    expect(put!.key).toBe(`mutationError/c-${dialect}/1`);
    const value = mutationErrorSchema.parse(put!.value);
    expect(value).toEqual(put!.value);
    const stored = await t.db.selectFrom('replicacheMutationErrors').selectAll().where('clientId', '=', `c-${dialect}`).executeTakeFirstOrThrow();
    expect(value).toEqual({ clientID: `c-${dialect}`, mutationID: 1, name: 'updateSetting', code: 'ERR_NO_PERMISSION', message: stored.message, createdAt: stored.createdAt });
    // Another group of the same user hears nothing of it.
    expect(await pull(userSession.token, `other-${dialect}`)).toEqual([]);
  });
});
