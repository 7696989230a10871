// Three instances on one PostgreSQL behave like one (DESIGN §11), tried as a user would: started
// together as separate processes on an empty database, then driven through whichever instance a
// load balancer would pick. PostgreSQL only (SQLite serves one process).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createPostgresDatabase } from '../../test/harness.ts';
import { demoAdmin } from '../../test/demo-admin.ts';
import { startServerProcess, type ServerProcess } from '../../test/process.ts';
import { prepareGuardedDatabase } from '../../test/template-db.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { waitFor } from './testing.ts';

const pgUrl = process.env.TEST_POSTGRES_URL;
/** The same secrets on every instance: a token signed by one is valid on the others. */
const SECRETS = { JWT_SECRET: 'cluster-jwt', JWT_REFRESH_SECRET: 'cluster-refresh', DATA_KEY: Buffer.alloc(32, 7).toString('base64url') };
/** One media folder for the three (README "Several instances"): a file stored by one is sent by the holder. */
const MEDIA_DIR = mkdtempSync(path.join(tmpdir(), 'zapdesk-cluster-media-'));

describe.skipIf(!pgUrl)('three instances on one PostgreSQL', () => {
  let pg: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let db: Database;
  let servers: ServerProcess[] = [];
  const { login, call } = demoAdmin();
  let demoConnection = 0;

  beforeAll(async () => {
    pg = await createPostgresDatabase(pgUrl!);
    // Migrated once with the version guard; the first start (the seed) is what the three race for.
    await prepareGuardedDatabase(pg.url);
    db = openDatabase(pg.url).db;
    servers = await Promise.all([0, 1, 2].map(() => startServerProcess({ dataDir: mkdtempSync(path.join(tmpdir(), 'zapdesk-cluster-')), databaseUrl: pg.url, guard: false, env: { ...SECRETS, MEDIA_DIR, WEB_ORIGINS: 'http://balancer.test:3000', TRUSTED_PROXIES: '127.0.0.1', RATE_LIMIT_PER_IP: '15' } })));
    await login(servers[0]!);
    demoConnection = ((await call(servers[0]!, 'GET', '/whatsapp')) as { id: number }[])[0]!.id;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill('SIGTERM')));
    await db?.destroy();
    await pg?.drop();
  });

  it('started together on an empty database: one runs the first start, the others wait for it and serve', async () => {
    expect(servers.filter((s) => s.output().includes('First start: created the platform super-admin'))).toHaveLength(1);
    for (const s of servers) {
      expect(s.output()).not.toMatch(/duplicate key|version guard/);
      expect((await s.request('POST', '/auth/login', { body: { email: 'admin@demo.zapdesk.local', password: 'process-test-password' } })).status).toBe(200);
    }
    expect(await db.selectFrom('plans').select('name').orderBy('id').execute()).toHaveLength(2);
    // The web app served through a balancer (WEB_ORIGINS) may call every instance; other sites may not.
    const preflight = (s: ServerProcess, origin: string) =>
      fetch(`${s.url}/auth/login`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } }).then((r) => r.headers.get('access-control-allow-origin'));
    for (const s of servers) expect(await preflight(s, 'http://balancer.test:3000')).toBe('http://balancer.test:3000');
    expect(await preflight(servers[0]!, 'http://elsewhere.test')).toBeNull();
    // Behind the balancer (a trusted proxy) each client has its own login limit, by the address the
    // balancer saw: the rightmost X-Forwarded-For entry (what the client wrote to its left is ignored).
    const attempt = (ip: string, i: number) =>
      fetch(`${servers[2]!.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.9, ${ip}` },
        body: JSON.stringify({ email: `nobody${i}@example.test`, password: 'wrong-password-1' }),
      }).then((r) => r.status);
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) statuses.push(await attempt('198.51.100.7', i));
    expect(statuses.slice(0, 15).filter((st) => st === 429)).toEqual([]);
    expect(statuses[15]).toBe(429);
    expect(await attempt('198.51.100.8', 99)).not.toBe(429);
  });

  it('a change made through one instance pokes the sockets of another', async () => {
    const token = await login(servers[1]!);
    const socket = new WebSocket(`${servers[1]!.url.replace('http', 'ws')}/sync/ws?token=${token}`);
    const messages: string[] = [];
    socket.on('message', (data) => messages.push(String(data)));
    try {
      await waitFor(async () => messages.some((m) => m.includes('"ready"')), Boolean, 10_000);
      // A pull on the socket first: from then on a poke brings the changes with it (realtime/README.md).
      socket.send(JSON.stringify({ type: 'pull', id: 1, body: { pullVersion: 1, clientGroupID: 'cluster-test', cookie: null, profileID: 'p', schemaVersion: '' } }));
      await waitFor(async () => messages.some((m) => m.includes('"type":"pull"')), Boolean, 10_000);
      await call(servers[2]!, 'POST', '/tags', { name: 'Made on instance 2', color: '#123456' });
      // The tag made on instance 2 reaches the socket on instance 1.
      await waitFor(async () => messages.some((m) => m.includes('"poke"') && m.includes('Made on instance 2')), Boolean, 10_000);
    } finally {
      socket.close();
    }
  });

  it("an agent's replies through every instance leave once each, whichever holds the connection", async () => {
    const contact = await call(servers[0]!, 'POST', '/contacts', { name: 'Cluster contact', number: '5511955500001' });
    const ticket = await call(servers[1]!, 'POST', '/tickets', { contactId: contact.id, status: 'open', whatsappId: demoConnection });
    const bodies = servers.map((_, i) => `reply through instance ${i}`);
    for (const [i, s] of servers.entries()) {
      const sent = await s.request('POST', `/messages/${ticket.id}`, { token: await login(s), body: { body: bodies[i] } });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    }
    await waitFor(
      async () => db.selectFrom('messages').select('sendStatus').where('ticketId', '=', ticket.id).where('fromMe', '=', 1).execute(),
      (rows) => rows.length === 3 && rows.every((r) => r.sendStatus === 'sent'),
      20_000,
    );
    // The simulated network is one: any instance lists the holder's phone.
    for (const s of servers) {
      const outbox = (await call(s, 'GET', `/simulator/outbox?connectionId=${demoConnection}&to=5511955500001`)) as { body: string }[];
      expect(outbox.map((m) => m.body)).toEqual(bodies);
    }
  });

  it('session commands and simulator controls from any instance reach the holder', async () => {
    const [a, b, c] = servers as [ServerProcess, ServerProcess, ServerProcess];
    const created = await call(a, 'POST', '/whatsapp', { name: 'Line across instances', provider: 'simulator' });
    const id = created.id as number;
    expect((await call(b, 'POST', `/whatsappsession/${id}`)).status).toBe('qrcode');
    expect((await call(c, 'POST', `/simulator/connections/${id}/scan`)).status).toBe('CONNECTED');
    expect((await call(a, 'PUT', `/whatsappsession/${id}`)).status).toBe('qrcode');
    const paired = await call(c, 'POST', `/whatsappsession/${id}/pairing-code`, { number: '5511988887777' });
    expect(paired.pairingCode).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    for (const s of servers) expect((await call(s, 'GET', `/whatsappsession/${id}`)).pairingCode).toBe(paired.pairingCode);
    expect((await call(b, 'POST', `/simulator/connections/${id}/scan`)).status).toBe('CONNECTED');

    // A customer writes through each instance's simulator: each message is stored once, on one ticket.
    for (const [i, s] of servers.entries()) await call(s, 'POST', '/simulator/messages', { connectionId: id, from: '5511955500002', body: `hello ${i}` });
    const stored = await db.selectFrom('messages').select(['body', 'ticketId']).where('whatsappId', '=', id).where('fromMe', '=', 0).orderBy('id').execute();
    expect(stored.map((m) => m.body)).toEqual(['hello 0', 'hello 1', 'hello 2']);
    expect(new Set(stored.map((m) => m.ticketId)).size).toBe(1);
    // A burst through each instance: stored once each, whichever instance took it.
    for (const [i, s] of servers.entries()) {
      const { ids } = await call(s, 'POST', `/simulator/connections/${id}/messages`, { messages: [0, 1, 2].map((k) => ({ from: '5511955500004', body: `burst ${i}.${k}` })) });
      expect(ids).toHaveLength(3);
    }
    const burst = await db.selectFrom('messages').select('body').where('whatsappId', '=', id).where('body', 'like', 'burst %').execute();
    expect(burst.map((m) => m.body).sort()).toEqual(['0', '1', '2'].flatMap((i) => [0, 1, 2].map((k) => `burst ${i}.${k}`)));
    // Past NOTIFY's 8000 bytes, the call travels in parts (accents: more bytes than characters).
    const long = 'ação '.repeat(6_000);
    await call(a, 'POST', '/simulator/messages', { connectionId: id, from: '5511955500003', body: long });
    expect((await db.selectFrom('messages').select('body').where('whatsappId', '=', id).where('body', '=', long).execute()).length).toBe(1);

    // Faults set through one instance hold on the holder: the next send fails there and is retried.
    expect(await call(a, 'POST', `/simulator/connections/${id}/faults`, { failSends: 1 })).toEqual({ id, sendLatencyMs: 0, failSends: 1, deliverAfterMs: 0, readAfterMs: 0 });
    await call(a, 'PUT', `/tickets/${stored[0]!.ticketId}`, { status: 'open' });
    const reply = await call(c, 'POST', `/messages/${stored[0]!.ticketId}`, { body: 'after one failure' });
    await waitFor(async () => (await db.selectFrom('messages').select(['sendStatus', 'ack']).where('id', '=', reply.id).executeTakeFirstOrThrow()).sendStatus, (st) => st === 'sent', 20_000);
    const [entry] = (await call(b, 'GET', `/simulator/outbox?connectionId=${id}&to=5511955500002`)) as { id: string; body: string }[];
    expect(entry?.body).toBe('after one failure');
    // A file sent through an instance that does not run the connection: stored in the shared media
    // folder by a, sent by b.
    const form = new FormData();
    form.append('body', 'the file');
    form.append('medias', new Blob(['notes for the customer'], { type: 'text/plain' }), 'notes.txt');
    const upload = await fetch(`${a.url}/messages/${stored[0]!.ticketId}`, { method: 'POST', headers: { authorization: `Bearer ${await login(a)}` }, body: form });
    expect(upload.status).toBe(201);
    const [file] = ((await upload.json()) as { messages: { id: number }[] }).messages;
    await waitFor(async () => (await db.selectFrom('messages').select('sendStatus').where('id', '=', file!.id).executeTakeFirstOrThrow()).sendStatus, (st) => st === 'sent', 20_000);
    expect((await call(a, 'POST', '/simulator/acks', { connectionId: id, messageId: entry!.id, ack: 3 })).ack).toBe(3);
    await waitFor(async () => (await db.selectFrom('messages').select('ack').where('id', '=', reply.id).executeTakeFirstOrThrow()).ack, (ack) => ack === 3, 10_000);

    // Network questions asked through instances that do not run the session (b started it): the
    // reply deleted for everyone, the phone's address book imported.
    expect((await call(a, 'DELETE', `/messages/${reply.id}`)).isDeleted).toBe(true);
    expect((await call(c, 'POST', '/contacts/import')).count).toBeGreaterThanOrEqual(5);

    expect((await call(c, 'DELETE', `/whatsappsession/${id}`)).status).toBe('DISCONNECTED');
    // Down everywhere: a control needing the session says so, from any instance.
    const refused = await a.request('POST', `/simulator/connections/${id}/scan`, { token: await login(a) });
    expect(refused).toMatchObject({ status: 400, body: { error: 'ERR_WAPP_NOT_INITIALIZED' } });
    expect((await call(b, 'POST', `/whatsappsession/${id}`)).status).toBe('qrcode');
  });
});
