// The repository's HAProxy config (deploy/haproxy.cfg) in front of three instances on one
// PostgreSQL, tried for real: Debian's haproxy runs the file as written, only its ports moved to free
// ones (server/test/balancer.ts). Plain requests spread round-robin (each instance names itself in
// X-Zapdesk-Instance), a login and a write go through it, the sync WebSocket through it hears a change
// made on another instance, and with one instance SIGKILLed every request still succeeds (retries,
// redispatch, health checks). PostgreSQL only (SQLite serves one process). It needs haproxy:
// .ci/run installs it (apt-get install haproxy); a test may not, so without it this file fails with
// that command in its message rather than skipping.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBalancer, type Balancer } from '../../test/balancer.ts';
import { createPostgresDatabase } from '../../test/harness.ts';
import { PROCESS_PASSWORD, startServerProcess, type ServerProcess } from '../../test/process.ts';
import { prepareGuardedDatabase } from '../../test/template-db.ts';
import { waitFor } from './testing.ts';

const pgUrl = process.env.TEST_POSTGRES_URL;
/** The same secrets on every instance: a token signed by one is valid on the others. */
const SECRETS = { JWT_SECRET: 'balancer-jwt', JWT_REFRESH_SECRET: 'balancer-refresh', DATA_KEY: Buffer.alloc(32, 9).toString('base64url') };
const HEADER = 'x-zapdesk-instance';

describe.skipIf(!pgUrl)('three instances behind deploy/haproxy.cfg', () => {
  let pg: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let servers: ServerProcess[] = [];
  let ids: string[] = [];
  let balancer: Balancer;

  /** A request through the balancer: status, parsed body and the instance that answered. */
  const through = async (method: string, route: string, opts: { token?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${balancer.url}${route}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    const text = await res.text();
    return { status: res.status, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text, instance: res.headers.get(HEADER) };
  };
  const loginThrough = async () => {
    const res = await through('POST', '/auth/login', { body: { email: 'admin@demo.zapdesk.local', password: PROCESS_PASSWORD } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.token as string;
  };

  beforeAll(async () => {
    pg = await createPostgresDatabase(pgUrl!);
    await prepareGuardedDatabase(pg.url);
    servers = await Promise.all([0, 1, 2].map(() => startServerProcess({ dataDir: mkdtempSync(path.join(tmpdir(), 'zapdesk-balancer-')), databaseUrl: pg.url, guard: false, env: { ...SECRETS, TRUSTED_PROXIES: '127.0.0.1' } })));
    ids = await Promise.all(servers.map(async (s) => (await fetch(`${s.url}/health`)).headers.get(HEADER) ?? ''));
    balancer = await startBalancer(servers);
  }, 120_000);

  afterAll(async () => {
    await balancer?.stop();
    await Promise.all(servers.map((s) => s.kill('SIGTERM')));
    await pg?.drop();
  });

  it('spreads plain requests round-robin over the three, each answer naming its instance', async () => {
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const answered: string[] = [];
    for (let i = 0; i < 9; i++) {
      const res = await through('GET', '/health');
      expect(res.status).toBe(200);
      answered.push(res.instance!);
    }
    for (const id of ids) expect(answered.filter((a) => a === id)).toHaveLength(3);
    // Error answers name their instance too.
    const missing = await through('GET', '/no-such-route');
    expect(missing.status).toBe(404);
    expect(ids).toContain(missing.instance);
    // The web frontend reaches the instances' web servers (their own 404 for a missing asset, not HAProxy's 503).
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${balancer.webUrl}/assets/missing.js`);
      expect([res.status, await res.text()]).toEqual([404, 'Not found']);
    }
  });

  it('a login and a write through the balancer: the token and the row hold on every instance', async () => {
    const token = await loginThrough();
    const created = await through('POST', '/tags', { token, body: { name: 'Through the balancer', color: '#0a0b0c' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const readers = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const listed = await through('GET', '/tags', { token });
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body)).toContain('Through the balancer');
      readers.add(listed.instance!);
    }
    expect(readers.size).toBe(3);
  });

  it('the sync socket through the balancer hears a change made directly on another instance', async () => {
    const token = await loginThrough();
    const socket = new WebSocket(`${balancer.url.replace('http', 'ws')}/sync/ws?token=${token}`);
    const held = new Promise<string>((resolve) => socket.once('upgrade', (res) => resolve(String(res.headers[HEADER]))));
    const messages: string[] = [];
    socket.on('message', (data) => messages.push(String(data)));
    try {
      const holder = await held;
      expect(ids).toContain(holder);
      await waitFor(async () => messages.some((m) => m.includes('"ready"')), Boolean, 10_000);
      // A pull on the socket first: from then on a poke brings the changes with it (realtime/README.md).
      socket.send(JSON.stringify({ type: 'pull', id: 1, body: { pullVersion: 1, clientGroupID: 'balancer-test', cookie: null, profileID: 'p', schemaVersion: '' } }));
      await waitFor(async () => messages.some((m) => m.includes('"type":"pull"')), Boolean, 10_000);
      const other = servers[ids.findIndex((id) => id !== holder)]!;
      const made = await other.request('POST', '/tags', { token, body: { name: 'Made beside the socket', color: '#112233' } });
      expect(made.status).toBe(201);
      await waitFor(async () => messages.some((m) => m.includes('"poke"') && m.includes('Made beside the socket')), Boolean, 10_000);
    } finally {
      socket.close();
    }
  });

  it('with one instance SIGKILLed, every request through the balancer still succeeds', async () => {
    const token = await loginThrough();
    const [victim] = servers.splice(2, 1) as [ServerProcess];
    const dead = ids[2]!;
    await victim.kill('SIGKILL');
    // Right after the kill the health check has not noticed yet (inter 2s, fall 2): a request sent to
    // the dead one is retried on another (retries 2, option redispatch). Then it is marked down.
    const answered: string[] = [];
    const until = Date.now() + 6_000;
    let i = 0;
    while (Date.now() < until) {
      const res = i % 3 === 2 ? await through('POST', '/tags', { token, body: { name: `After the kill ${i}`, color: '#445566' } }) : await through('GET', i % 3 ? '/tags' : '/health', { token });
      expect(res.status, `request ${i}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      answered.push(res.instance!);
      i++;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(answered).not.toContain(dead);
    expect(new Set(answered)).toEqual(new Set(ids.slice(0, 2)));
    expect(balancer.output()).toMatch(/zapdesk_api\/zapdesk3 is DOWN/);
  });
});
