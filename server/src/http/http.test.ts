import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { seedSuper } from '../../test/seed.ts';

// Requests no handler should ever turn into a 500 or a half-written row.
describe.each(DIALECTS)('malformed requests on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { maxJsonBytes: 64 * 1024 });
    token = (await seedSuper(t)).session.token;
  });
  afterAll(async () => t.close());

  const countPlans = async () => (await t.db.selectFrom('plans').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;

  it('refuses text holding a NUL character with ERR_VALIDATION and writes nothing', async () => {
    const before = Number(await countPlans());
    const res = await t.request('POST', '/plans', { token, body: { name: 'Gold\u0000', users: 1, connections: 1, queues: 1, value: 10 } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'name' }] });
    expect(Number(await countPlans())).toBe(before);
    // Deep in a body: the path names it.
    const push = { pushVersion: 1, clientGroupID: 'nul-group', mutations: [{ id: 1, clientID: 'nul-client', name: 'sendMessage', args: { ticketId: 1, body: 'a\u0000b' } }] };
    const deep = await t.request('POST', '/sync/push', { token, body: push });
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'mutations.0.args.body' }] });
  });

  it('refuses text holding a lone surrogate (half of a character) with ERR_VALIDATION and writes nothing', async () => {
    const before = Number(await countPlans());
    // JSON can carry one as an escape; JSON.stringify writes it so.
    const res = await t.request('POST', '/plans', { token, body: JSON.stringify({ name: 'Gold \ud800', users: 1, connections: 1, queues: 1, value: 10 }) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'name', message: expect.stringContaining('surrogate') }] });
    expect(Number(await countPlans())).toBe(before);
    const push = { pushVersion: 1, clientGroupID: 'half-group', mutations: [{ id: 1, clientID: 'half-client', name: 'sendMessage', args: { ticketId: 1, body: 'oi \udc00' } }] };
    const deep = await t.request('POST', '/sync/push', { token, body: JSON.stringify(push) });
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'mutations.0.args.body' }] });
    // A whole character, outside the Basic Multilingual Plane (a surrogate pair), is text like any other.
    const emoji = await t.request('POST', '/plans', { token, body: { name: 'Gold 😀', users: 1, connections: 1, queues: 1, value: 10 } });
    expect([emoji.status, emoji.body.name]).toEqual([201, 'Gold 😀']);
  });

  it('answers a body over the limit with 413 ERR_PAYLOAD_TOO_LARGE', async () => {
    const res = await t.request('POST', '/plans', { token, body: { name: 'x'.repeat(70 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('ERR_PAYLOAD_TOO_LARGE');
  });

  it('answers a non-JSON content type with 415 and an unknown route with 404', async () => {
    const res = await t.request('POST', '/plans', { token, body: 'name=Gold', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(res.body.error).toBe('ERR_UNSUPPORTED_MEDIA_TYPE');
    const missing = await t.request('GET', '/no/such/thing', { token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'ERR_ROUTE_NOT_FOUND', message: 'There is no GET /no/such/thing.' });
  });

  it('answers a JSON array or scalar body with ERR_VALIDATION, not a crash', async () => {
    for (const body of ['[1,2]', '"text"', 'null', '42']) {
      const res = await t.request('POST', '/plans', { token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
  });
});
