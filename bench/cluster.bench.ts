// Cluster benchmark (DESIGN §11, README "Several instances"): three `npm start` processes on one fresh
// PostgreSQL database behind Debian's HAProxy running deploy/haproxy.cfg (only its ports moved to
// free ones: server/test/balancer.ts), the production lease timings, on this one machine.
//
// (a) Ingestion: 20,000 customer messages from 2,000 contacts over 6 simulator connections, two held
//     by each instance, offered at 3,300 a second (BENCH_OFFERED; open loop: each at its due moment,
//     as customers write whatever the ones before them are doing) and handed to the instance holding
//     the connection as its socket would: every 10 ms (BENCH_TICK_MS) the messages due on each
//     connection in one POST /simulator/connections/:id/messages, answered once they are stored.
//     Stored messages a second over all three (first offer to last stored) and duplicates (counted,
//     then 2,000 redelivered with the same ids: nothing new). For comparison, BENCH_SINGLE (4,000)
//     more messages one request each (POST /simulator/messages, 128 in flight), where each message
//     also pays for an HTTP request, its session check and its connection lookup.
// (b) Poke-to-visible: 50 real Replicache clients (bench/sync-client-pool.ts) signed in, pulling and
//     listening (/sync/ws) through the balancer, so spread round-robin over the instances; each round
//     a tag renamed through one instance (in turn), timed from the rename's request to each client's
//     sight of the new name.
// (c) Take-over, 5 times: the holder of a connection SIGKILLed at a random moment of its lease
//     heartbeat, a customer's message sent through the balancer at once; the time until another
//     instance holds the connection CONNECTED, and until that message is stored. The killed instance
//     starts again on its ports between rounds. Requests through the balancer meanwhile are counted.
// PostgreSQL from BENCH_POSTGRES_URL or TEST_POSTGRES_URL. BENCH_SERVER_PROFILE=<dir>: each instance
// writes a CPU profile there when it stops (not those killed). Prints one JSON object.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import argon2 from 'argon2';
import { SIMULATOR_BURST_MAX } from '@zapdesk/sync';
import { openDatabase } from '../server/src/db/database.ts';
import { tenant } from '../server/src/db/tenant.ts';
import { findHaproxy, HAPROXY_MISSING, startBalancer } from '../server/test/balancer.ts';
import { createPostgresDatabase } from '../server/test/harness.ts';
import { PROCESS_PASSWORD, startServerProcess, type ServerProcess } from '../server/test/process.ts';
import { cpuSeconds, createJsonClient, runPool, serverExecArgv, stats } from './lib.ts';
import { startClientPool } from './sync-client-pool.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 2_000);
const CONNECTIONS = 6;
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 128);
// Messages offered a second in all (open loop), handed over every TICK_MS.
const OFFERED = Number(process.env.BENCH_OFFERED ?? 3_300);
const TICK_MS = Number(process.env.BENCH_TICK_MS ?? 10);
// Messages sent afterwards one request each, for comparison.
const SINGLE = Number(process.env.BENCH_SINGLE ?? 4_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const TAKEOVERS = Number(process.env.BENCH_TAKEOVERS ?? 5);
const PASSWORD = 'Bench-Pass-1';
const SECRETS = { JWT_SECRET: 'cluster-bench-jwt', JWT_REFRESH_SECRET: 'cluster-bench-refresh', DATA_KEY: Buffer.alloc(32, 5).toString('base64url') };
// 50 clients sign in from this one address through the balancer: the login limit is per address.
const ENV = { ...SECRETS, TRUSTED_PROXIES: '127.0.0.1', RATE_LIMIT_PER_IP: '100000' };
const HEADER = 'x-zapdesk-instance';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.timeOrigin + performance.now();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? null;

const pgBase = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL;
if (!findHaproxy()) {
  console.log(JSON.stringify({ error: HAPROXY_MISSING }));
  process.exit(0);
}
if (!pgBase) {
  console.log(JSON.stringify({ error: 'PostgreSQL needed: set BENCH_POSTGRES_URL or TEST_POSTGRES_URL (e.g. postgres://postgres@127.0.0.1:5432/test)' }));
  process.exit(0);
}

const cores = availableParallelism();
const load0 = loadavg()[0]!;
const pg = await createPostgresDatabase(pgBase);
const dataDirs = [0, 1, 2].map(() => mkdtempSync(path.join(tmpdir(), 'zapdesk-bench-cluster-')));
const execArgv = serverExecArgv();
const servers: ServerProcess[] = await Promise.all(dataDirs.map((dataDir) => startServerProcess({ dataDir, databaseUrl: pg.url, guard: false, env: ENV, execArgv })));
const idOf = async (s: ServerProcess) => (await fetch(`${s.url}/health`)).headers.get(HEADER)!;
const ids = await Promise.all(servers.map(idOf));
const balancer = await startBalancer(servers);
const { db } = openDatabase(pg.url);

/** JSON over HTTP to `base` (an instance or the balancer); throws on an error answer. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(base: string, method: string, route: string, opts: { token?: string; body?: unknown } = {}): Promise<any> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${route}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}
const holderOf = async (companyId: number, id: number) => {
  const row = await tenant(db, companyId).selectFrom('whatsapps').select(['leaseOwner', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
  return { index: ids.indexOf(row.leaseOwner ?? ''), status: row.status };
};

async function ingestion(token: string, companyId: number) {
  // Two connections started on each instance: the one that starts a session takes its lease. The
  // demo plan allows 5 connections; the bench's company gets room for its 6 beside the demo's line.
  const { planId } = await db.selectFrom('companies').select('planId').where('id', '=', companyId).executeTakeFirstOrThrow();
  await db.updateTable('plans').set({ connections: CONNECTIONS + 1 }).where('id', '=', planId).execute();
  const connections: { id: number; holder: number }[] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const s = servers[i % servers.length]!;
    const created = await call(balancer.url, 'POST', '/whatsapp', { token, body: { name: `Cluster line ${i}`, provider: 'simulator' } });
    await call(s.url, 'POST', `/whatsappsession/${created.id}`, { token });
    await call(s.url, 'POST', `/simulator/connections/${created.id}/scan`, { token, body: { number: `5511900000${String(i).padStart(2, '0')}` } });
    connections.push({ id: created.id, holder: (await holderOf(companyId, created.id)).index });
  }
  const message = (i: number) => {
    const c = i % CONTACTS;
    const conn = connections[c % CONNECTIONS]!;
    return { conn, input: { id: `bench-in-${i}`, from: `55219${String(c).padStart(8, '0')}`, name: `Contact ${c}`, body: `Message ${i} about order ${i % 97}` } };
  };
  // The customers' side is this process, on the machine under test: its requests go out through a
  // lean client (createJsonClient), and its CPU is reported beside the instances'.
  const post = createJsonClient();
  const auth = { authorization: `Bearer ${token}` };
  // Messages arrive at OFFERED a second, each at its due moment whatever the ones before it are doing
  // (customers do not wait for us). Every TICK_MS, the messages due on each connection go to its
  // holder together, as its socket would hand them over: one POST /simulator/connections/:id/messages
  // per connection and tick, answered once they are stored.
  const bursts: Promise<void>[] = [];
  const latencies: number[] = [];
  const burstSizes: number[] = [];
  const offer = async () => {
    const start = performance.now();
    let offered = 0;
    while (offered < MESSAGES) {
      const due = Math.min(MESSAGES, Math.floor(((performance.now() - start) / 1000) * OFFERED));
      const byConnection = new Map<(typeof connections)[number], number[]>();
      for (; offered < due; offered++) {
        const { conn } = message(offered);
        const list = byConnection.get(conn);
        if (list) list.push(offered);
        else byConnection.set(conn, [offered]);
      }
      for (const [conn, list] of byConnection) {
        for (let b = 0; b < list.length; b += SIMULATOR_BURST_MAX) {
          const part = list.slice(b, b + SIMULATOR_BURST_MAX);
          burstSizes.push(part.length);
          const dueAt = part.map((i) => start + (i / OFFERED) * 1000);
          bursts.push(
            post(`${servers[conn.holder]!.url}/simulator/connections/${conn.id}/messages`, 'POST', auth, { messages: part.map((i) => message(i).input) }).then(() => {
              const now = performance.now();
              for (const at of dueAt) latencies.push(now - at);
            }),
          );
        }
      }
      await new Promise((r) => setTimeout(r, TICK_MS));
    }
  };
  const deliverOne = (i: number) => {
    const { conn, input } = message(i);
    return post(`${servers[conn.holder]!.url}/simulator/messages`, 'POST', auth, { connectionId: conn.id, ...input });
  };
  const lines = connections.map((c) => c.id);
  const count = async () => Number((await tenant(db, companyId).selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).where('whatsappId', 'in', lines).where('fromMe', '=', 0).executeTakeFirstOrThrow()).n);

  const cpu0 = servers.map((s) => cpuSeconds(s.child.pid!));
  const own0 = process.cpuUsage();
  const t0 = performance.now();
  await offer();
  await Promise.all(bursts);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = servers.reduce((sum, s, i) => sum + cpuSeconds(s.child.pid!) - cpu0[i]!, 0);
  const own = process.cpuUsage(own0);
  const stored = await count();
  // For comparison, the path of one request per message: SINGLE more messages (new ids, the same contacts).
  const r0 = performance.now();
  const cpu1 = servers.map((s) => cpuSeconds(s.child.pid!));
  const singleLatencies = await runPool(SINGLE, IN_FLIGHT, (k) => deliverOne(MESSAGES + k));
  const singleSeconds = (performance.now() - r0) / 1000;
  const singleCpu = servers.reduce((sum, s, i) => sum + cpuSeconds(s.child.pid!) - cpu1[i]!, 0);
  const storedSingle = (await count()) - stored;
  // The first 2,000 again (the same ids), one request each: nothing new.
  const redelivered = Math.min(2_000, MESSAGES);
  await runPool(redelivered, IN_FLIGHT, deliverOne);
  const afterRedelivery = (await count()) - storedSingle;
  const tickets = Number((await tenant(db, companyId).selectFrom('tickets').select((eb) => eb.fn.countAll<number>().as('n')).where('whatsappId', 'in', lines).executeTakeFirstOrThrow()).n);
  return {
    messages: MESSAGES,
    contacts: CONTACTS,
    connections: CONNECTIONS,
    connectionsPerInstance: servers.map((_, i) => connections.filter((c) => c.holder === i).length),
    offeredPerSecond: OFFERED,
    path: `every ${TICK_MS} ms, the messages due on each connection in one POST /simulator/connections/:id/messages to its holder, answered once they are stored`,
    messagesPerRequest: stats(burstSizes),
    seconds: Number(seconds.toFixed(3)),
    storedMessagesPerSecond: Math.round(stored / seconds),
    latencyMs: { ...stats(latencies), from: "the message's due moment to the answer of its request" },
    instancesCpuSecondsPerThousand: Number(((cpu / MESSAGES) * 1000).toFixed(3)),
    loadGeneratorCpuSecondsPerThousand: Number((((own.user + own.system) / 1e6 / MESSAGES) * 1000).toFixed(3)),
    stored,
    duplicates: stored - MESSAGES + (afterRedelivery - stored),
    tickets,
    redelivered,
    oneRequestPerMessage: {
      path: `POST /simulator/messages, one message a request, ${IN_FLIGHT} in flight`,
      messages: SINGLE,
      stored: storedSingle,
      storedMessagesPerSecond: Math.round(storedSingle / singleSeconds),
      latencyMs: stats(singleLatencies),
      instancesCpuSecondsPerThousand: Number(((singleCpu / SINGLE) * 1000).toFixed(3)),
    },
    afterRedelivery,
    target: 3_000,
    met: stored === MESSAGES && stored / seconds >= 3_000,
  };
}

async function pokes(token: string, companyId: number) {
  // A world of ~5,000 rows every user sees, as in sync.bench.ts: 1,500 tags and 3,500 quick messages;
  // the users written directly (past the demo plan's 20), as sync.bench.ts seeds its own.
  const t = tenant(db, companyId);
  const passwordHash = await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });
  const users = await t.insertInto('users', Array.from({ length: CLIENTS }, (_, i) => ({ name: `Agent ${i}`, email: `cluster-agent${i}@bench.test`, passwordHash, profile: 'user' }))).returning(['id', 'email']).execute();
  const tagIds: number[] = [];
  for (let b = 0; b < 3; b++) tagIds.push(...(await t.insertInto('tags', Array.from({ length: 500 }, (_, i) => ({ name: `Tag ${b}-${i}`, color: '#00ff00' }))).returning('id').execute()).map((r) => r.id));
  for (let b = 0; b < 7; b++) await t.insertInto('quickMessages', Array.from({ length: 500 }, (_, i) => ({ shortcode: `qm${b}-${i}`, message: `Quick answer number ${b}-${i} with some text`, geral: 1 }))).execute();
  const tagId = tagIds[tagIds.length - 1]!;
  // What a new client of these users holds after its first pull (they all see the same rows).
  const agent = await call(balancer.url, 'POST', '/auth/login', { body: { email: users[0]!.email, password: PASSWORD } });
  const first = await call(balancer.url, 'POST', '/sync/pull', { token: agent.token, body: { pullVersion: 1, clientGroupID: 'cluster-count', cookie: null, profileID: 'bench', schemaVersion: '' } });
  const expectedRows = (first.patch as { op: string }[]).filter((p) => p.op === 'put').length;

  const pool = await startClientPool(cores, { url: balancer.url, users: users.map((u) => ({ email: u.email, password: PASSWORD })), watchKey: `tag/${tagId}`, expectedRows });
  const latencies: number[] = [];
  const writes: number[] = [];
  let clientsCpuMs: number;
  let instancesCpuMs: number;
  try {
    await pool.measure();
    const cpu0 = servers.map((s) => cpuSeconds(s.child.pid!));
    for (let r = 0; r < ROUNDS; r++) {
      const name = `round-${r}`;
      const seen: number[] = [];
      let stopListening = () => false;
      const all = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`round ${r}: ${seen.length}/${users.length} clients saw the change`)), 15_000);
        stopListening = pool.onSightings((items) => {
          for (const s of items) if (s.name === name) seen.push(s.at);
          if (seen.length === users.length) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const t0 = now();
      await call(servers[r % servers.length]!.url, 'PUT', `/tags/${tagId}`, { token, body: { name, color: '#00ff00' } });
      writes.push(now() - t0);
      await all.finally(stopListening);
      latencies.push(...seen.map((at) => at - t0));
      await sleep(100);
    }
    instancesCpuMs = servers.reduce((sum, s, i) => sum + cpuSeconds(s.child.pid!) - cpu0[i]!, 0) * 1000;
    clientsCpuMs = await pool.measured();
  } finally {
    await pool.stop();
  }
  const pokeToVisibleMs = stats(latencies);
  return {
    clients: users.length,
    clientProcesses: pool.clientsPerProcess.length,
    visibleRows: expectedRows,
    rounds: ROUNDS,
    how: 'clients sign in, pull and listen through the balancer (round-robin over the three); the change is a PUT /tags/:id sent to each instance in turn, timed from its request',
    connectAndInitialSyncMs: Math.round(pool.connectMs),
    clientClockOffsetMs: pool.clockOffsetMs,
    changeRequestMs: stats(writes),
    pokeToVisibleMs,
    // Per round: the 50 pulls and the rename on the instances; the clients' own work (their
    // processes share this machine, and each runs its clients on one thread).
    cpuMsPerRound: { instances: Math.round(instancesCpuMs / ROUNDS), clients: Math.round(clientsCpuMs / ROUNDS) },
    target: { pokeToVisibleP95Ms: 150 },
    met: (pokeToVisibleMs.p95 ?? Infinity) < 150,
  };
}

async function takeovers(token: string, companyId: number, connectionId: number) {
  const rounds: { leaseMovedMs: number; heldMessageStoredMs: number; balancerRequests: number; balancerFailures: number }[] = [];
  for (let r = 0; r < TAKEOVERS; r++) {
    const { index } = await holderOf(companyId, connectionId);
    if (index < 0) throw new Error(`round ${r}: connection ${connectionId} held by no running instance`);
    // A random moment of the holder's heartbeat (LEASE_HEARTBEAT_MS, 5 s by default).
    await sleep(Math.random() * 5_000);
    const victim = servers[index]!;
    await victim.kill('SIGKILL');
    const killedAt = now();
    let stop = false;
    let requests = 0;
    let failures = 0;
    const watcher = (async () => {
      while (!stop) {
        requests++;
        const ok = await fetch(`${balancer.url}/whatsapp`, { headers: { authorization: `Bearer ${token}` } }).then((res) => res.ok, () => false);
        if (!ok) failures++;
        await sleep(200);
      }
    })();
    const held = call(balancer.url, 'POST', '/simulator/messages', { token, body: { connectionId, from: '5521988887777', body: `sent at kill ${r}` } }).then(() => now() - killedAt);
    for (;;) {
      const h = await holderOf(companyId, connectionId);
      if (h.index >= 0 && h.index !== index && h.status === 'CONNECTED') break;
      if (now() - killedAt > 90_000) throw new Error(`round ${r}: no take-over within 90 s`);
      await sleep(50);
    }
    const leaseMovedMs = now() - killedAt;
    const heldMessageStoredMs = await held;
    stop = true;
    await watcher;
    const stored = await tenant(db, companyId).selectFrom('messages').select('id').where('body', '=', `sent at kill ${r}`).execute();
    if (stored.length !== 1) throw new Error(`round ${r}: the message sent at the kill stored ${stored.length} times`);
    rounds.push({ leaseMovedMs: Math.round(leaseMovedMs), heldMessageStoredMs: Math.round(heldMessageStoredMs), balancerRequests: requests, balancerFailures: failures });
    // The killed instance starts again on its ports (a new instance id) and rejoins the balancer.
    servers[index] = await startServerProcess({ dataDir: dataDirs[index]!, databaseUrl: pg.url, guard: false, env: ENV, execArgv, port: victim.port, webPort: victim.webPort });
    ids[index] = await idOf(servers[index]!);
    while ((await fetch(`${balancer.url}/health`)).headers.get(HEADER) !== ids[index]) await sleep(200);
  }
  return {
    rounds: TAKEOVERS,
    leaseTtlMs: 15_000,
    leaseHeartbeatMs: 5_000,
    perRound: rounds,
    leaseMovedMedianMs: median(rounds.map((x) => x.leaseMovedMs)),
    heldMessageStoredMedianMs: median(rounds.map((x) => x.heldMessageStoredMs)),
    balancerFailures: rounds.reduce((sum, x) => sum + x.balancerFailures, 0),
    target: { underMs: 30_000 },
    met: rounds.every((x) => x.heldMessageStoredMs < 30_000 && x.leaseMovedMs < 30_000),
  };
}

try {
  const login = await call(balancer.url, 'POST', '/auth/login', { body: { email: 'admin@demo.zapdesk.local', password: PROCESS_PASSWORD } });
  const token = login.token as string;
  const companyId = login.user.companyId as number;
  const ingest = await ingestion(token, companyId);
  const sync = await pokes(token, companyId);
  const firstLine = (await db.selectFrom('whatsapps').select('id').where('companyId', '=', companyId).where('name', '=', 'Cluster line 0').executeTakeFirstOrThrow()).id;
  const takeover = await takeovers(token, companyId, firstLine);
  console.log(
    JSON.stringify({
      dialect: 'postgres',
      instances: servers.length,
      balancer: `HAProxy (${findHaproxy()}) running deploy/haproxy.cfg, ports moved to free ones`,
      cores,
      loadAverage1m: { before: Number(load0.toFixed(2)), after: Number(loadavg()[0]!.toFixed(2)) },
      note: 'instances, PostgreSQL, HAProxy, the client processes and this process share this machine',
      ingestion: ingest,
      pokeToVisible: sync,
      takeover,
    }),
  );
} finally {
  await balancer.stop();
  await Promise.all(servers.map((s) => s.kill('SIGTERM')));
  await db.destroy();
  await pg.drop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
