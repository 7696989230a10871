// Sync benchmark: a generated company with ~5,000 rows every user sees, on a fresh database.
// Server time of pulls is measured in-process around the pull itself (what the endpoint adds on top
// is one auth query and JSON). Poke-to-visible runs 50 real Replicache clients in child processes
// (bench/sync-client-pool.ts, bench/sync-clients.ts), one per CPU core, so that clients and server
// do not share one event loop and a client's pull does not wait for all the others' on one thread.
// BENCH_DIALECT=postgres (with TEST_POSTGRES_URL) runs it on PostgreSQL. The poked pulls are answered
// on the pull thread as the server answers them (server/src/sync/README.md); PULL_THREAD=0 answers
// them on the main thread. Prints one JSON object.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus, loadavg } from 'node:os';
import argon2 from 'argon2';
import { sql } from 'kysely';
import type { Actor } from '../server/src/context.ts';
import type { Dialect } from '../server/src/db/database.ts';
import { tenant } from '../server/src/db/tenant.ts';
import { pull } from '../server/src/sync/pull.ts';
import { pullThreadMode } from '../server/src/config.ts';
import { startPullThread } from '../server/src/sync/pull-thread.ts';
import { syncServiceOf } from '../server/src/sync/service.ts';
import { createSyncStore } from '../server/src/sync/store.ts';
import { seedCompany, seedPlan } from '../server/test/seed.ts';
import { startLiveApp, type LiveApp } from '../server/test/live.ts';
import { startClientPool } from './sync-client-pool.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
// 50 users are 50 machines; this one has a few cores. One client process per core lets the clients'
// work use every core the machine has; more processes than cores cannot run more of it at once.
const CLIENT_PROCESSES = Number(process.env.BENCH_CLIENT_PROCESSES ?? cpus().length);
const PASSWORD = 'Bench-Pass-1';
const dialect = (process.env.BENCH_DIALECT ?? 'sqlite') as Dialect;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(3)) : null;
};
const stats = (xs: number[]) => ({ n: xs.length, p50: percentile(xs, 50), p95: percentile(xs, 95), max: percentile(xs, 100) });
const now = () => performance.timeOrigin + performance.now();

async function seedWorld(live: LiveApp) {
  const plan = await seedPlan(live);
  const company = await seedCompany(live, { planId: plan.id });
  const t = tenant(live.db, company.id);
  const passwordHash = await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });
  const users = await t
    .insertInto('users', Array.from({ length: 100 }, (_, i) => ({ name: `Agent ${i}`, email: `agent${i}-${company.id}@bench.test`, passwordHash, profile: i === 0 ? 'admin' : 'user' })))
    .returning(['id', 'email'])
    .execute();
  const queues = await t.insertInto('queues', Array.from({ length: 50 }, (_, i) => ({ name: `Queue ${i}`, color: `#${i.toString(16).padStart(6, '0')}` }))).returning('id').execute();
  await t.insertInto('userQueues', users.map((u, i) => ({ userId: u.id, queueId: queues[i % queues.length]!.id }))).execute();
  for (let i = 0; i < 20; i++) await t.insertInto('whatsapps', { name: `Connection ${i}`, provider: 'simulator', token: `tok-${i}` }).execute();
  const tagIds: number[] = [];
  for (let b = 0; b < 3; b++) {
    const rows = await t.insertInto('tags', Array.from({ length: 500 }, (_, i) => ({ name: `Tag ${b}-${i}`, color: '#00ff00' }))).returning('id').execute();
    tagIds.push(...rows.map((r) => r.id));
  }
  for (let b = 0; b < 7; b++) {
    await t.insertInto('quickMessages', Array.from({ length: 500 }, (_, i) => ({ shortcode: `qm${b}-${i}`, message: `Quick answer number ${b}-${i} with some text`, geral: 1 }))).execute();
  }
  const visible = 1 + 10 + users.length + queues.length + 20 + tagIds.length + 3500;
  return { company, users, tagIds, visible };
}

async function measurePulls(live: LiveApp, actor: Actor, tagId: number) {
  const store = createSyncStore(live.db, live.deps.dialect);
  const req = (clientGroupID: string, cookie: unknown) => ({ pullVersion: 1 as const, clientGroupID, cookie, profileID: 'bench', schemaVersion: '' });
  // Wall time, and the CPU time of this process over the same span (the server's own work, which
  // on a busy machine is the steadier figure: the pull is in-process and SQLite is in-thread).
  const cpu: Record<string, number[]> = {};
  const time = async (f: () => Promise<unknown>, label?: string) => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await f();
    const wall = performance.now() - t0;
    if (label) {
      const c = process.cpuUsage(c0);
      (cpu[label] ??= []).push((c.user + c.system) / 1000);
    }
    return wall;
  };

  const initial: number[] = [];
  let rows = 0;
  for (let i = 0; i < 10; i++) {
    initial.push(await time(async () => (rows = (await pull(live.deps, store, actor, req(`bench-init-${i}`, null))).stats.rows), 'initial'));
  }

  const group = 'bench-main';
  let cookie = (await pull(live.deps, store, actor, req(group, null))).response.cookie;
  const unchanged: number[] = [];
  for (let i = 0; i < 300; i++) unchanged.push(await time(() => pull(live.deps, store, actor, req(group, cookie)), 'noChange'));

  // One change, then the pull of the first user after it (listing recomputed) and of a second
  // user of the company after the same change (listing shared).
  const incremental: number[] = [];
  const incrementalShared: number[] = [];
  let cookie2 = (await pull(live.deps, store, actor, req('bench-second', null))).response.cookie;
  for (let i = 0; i < 100; i++) {
    await tenant(live.db, actor.companyId).updateTable('tags').set({ name: `Renamed ${i}`, version: sql`version + 1` }).where('id', '=', tagId).execute();
    incremental.push(await time(async () => (cookie = (await pull(live.deps, store, actor, req(group, cookie))).response.cookie), 'incremental'));
    incrementalShared.push(await time(async () => (cookie2 = (await pull(live.deps, store, actor, req('bench-second', cookie2))).response.cookie), 'incrementalShared'));
  }

  // The same no-change pull through the HTTP stack in-process (auth, JSON), for reference.
  const token = (await live.request('POST', '/auth/login', { body: { email: `agent1-${actor.companyId}@bench.test`, password: PASSWORD } })).body.token as string;
  const httpCookie = (await live.request('POST', '/sync/pull', { token, body: req('bench-http', null) })).body.cookie;
  const http: number[] = [];
  for (let i = 0; i < 200; i++) http.push(await time(() => live.request('POST', '/sync/pull', { token, body: req('bench-http', httpCookie) }), 'noChangeHttp'));

  return { initialRows: rows, initialPullMs: stats(initial), noChangePullMs: stats(unchanged), incrementalPullMs: stats(incremental), incrementalPullSharedListingMs: stats(incrementalShared), noChangePullHttpInProcessMs: stats(http), cpuMs: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, stats(v)])) };
}

async function measurePokes(live: LiveApp, world: Awaited<ReturnType<typeof seedWorld>>) {
  const tagId = world.tagIds[world.tagIds.length - 1]!;
  const users = world.users.slice(1, CLIENTS + 1).map((u) => ({ email: u.email, password: PASSWORD }));
  const pool = await startClientPool(CLIENT_PROCESSES, { url: live.url, users, watchKey: `tag/${tagId}`, expectedRows: world.visible });

  // BENCH_PROFILE=<file.cpuprofile>: a CPU profile of the server process over the poke rounds only.
  const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  await pool.measure();
  const latencies: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let r = 0; r < ROUNDS; r++) {
    const name = `round-${r}`;
    const seen: number[] = [];
    let stopListening = () => false;
    const all = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`round ${r}: ${seen.length}/${users.length} clients saw the change`)), 10_000);
      stopListening = pool.onSightings((items) => {
        for (const s of items) if (s.name === name) seen.push(s.at);
        if (seen.length === users.length) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    await tenant(live.db, world.company.id).updateTable('tags').set({ name, version: sql`version + 1` }).where('id', '=', tagId).execute();
    const t0 = now();
    live.deps.realtime.pokeCompany(world.company.id);
    await all.finally(stopListening);
    latencies.push(...seen.map((at) => at - t0));
    await new Promise((r) => setTimeout(r, 100));
  }
  const cpu = process.cpuUsage(cpu0);
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
    profiler.disconnect();
  }
  const clientCpuMs = await pool.measured();
  await pool.stop();
  return {
    clients: users.length,
    clientProcesses: pool.clientsPerProcess.length,
    clientsPerProcess: pool.clientsPerProcess,
    clientHosting: `${users.length} real Replicache clients (HTTP pulls, WebSocket pokes) in ${pool.clientsPerProcess.length} child processes of ${pool.clientsPerProcess.join('/')} clients, one per CPU core unless BENCH_CLIENT_PROCESSES says otherwise, beside the server's process: clients of one process share its thread, and all processes share this machine's ${cpus().length} cores with the server, which real users on their own machines do not`,
    clientClockOffsetMs: pool.clockOffsetMs,
    // As the CLI and the web build run them; NODE_ENV=development measures Replicache's checked mode.
    clientNodeEnv: process.env.NODE_ENV ?? 'production',
    rounds: ROUNDS,
    connectAndInitialSyncMs: Math.round(pool.connectMs),
    pokeToVisibleMs: stats(latencies),
    serverCpuMsPerPokedPull: Number(((cpu.user + cpu.system) / 1000 / (ROUNDS * users.length)).toFixed(3)),
    clientCpuMsPerPokedPull: Number((clientCpuMs / (ROUNDS * users.length)).toFixed(3)),
  };
}

const live = await startLiveApp(dialect);
// Pulls on their own thread when the server would send them there (PULL_THREAD=1, the default: while
// writes keep the main thread busy; `always`; 0: never).
const pullMode = pullThreadMode(process.env.PULL_THREAD);
const pullThread = pullMode === 'off' ? undefined : startPullThread(live.deps, pullMode);
syncServiceOf(live.deps).useThread(pullThread);
await pullThread?.whenReady();
try {
  const world = await seedWorld(live);
  const admin = world.users[0]!;
  const actor: Actor = { userId: admin.id, companyId: world.company.id, profile: 'admin', super: false, sessionId: 'bench' };
  const pulls = await measurePulls(live, actor, world.tagIds[0]!);
  const pokes = await measurePokes(live, world);
  const targets = { noChangePullP50Ms: 2, incrementalPullP50Ms: 10, pokeToVisibleP95Ms: 100 };
  console.log(
    JSON.stringify({
      dialect,
      pullThread: pullMode,
      pullsAnsweredOnThread: pullThread?.stats.answered ?? 0,
      cpus: cpus().length,
      loadAverage: loadavg().map((l) => Number(l.toFixed(1))),
      visibleRows: world.visible,
      ...pulls,
      ...pokes,
      targets,
      met: {
        noChangePull: (pulls.noChangePullMs.p50 ?? Infinity) < targets.noChangePullP50Ms,
        incrementalPull: (pulls.incrementalPullMs.p50 ?? Infinity) < targets.incrementalPullP50Ms,
        pokeToVisible: (pokes.pokeToVisibleMs.p95 ?? Infinity) < targets.pokeToVisibleP95Ms,
      },
    }),
  );
} finally {
  await pullThread?.stop();
  await live.close();
}
