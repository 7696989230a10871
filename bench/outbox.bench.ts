// Outbox benchmark (DESIGN §12): the product as a real process (server/src/main.ts on a fresh
// DATA_DIR), 4 simulator connections whose every send takes 20 ms, 10,000 replies pushed through
// POST /sync/push by 50 clients at once (bench/outbox-pushers.ts, a process of its own, each behaving
// as a Replicache client: one push in flight, the replies typed meanwhile batched), typed at 1,000 a
// second in all, more than the connections can send, so a backlog builds. Measures
// dispatch throughput against what that latency allows at the dispatcher's per-connection
// concurrency, duplicates and losses (the simulated network's outbox against the message rows), and
// the p95 of GET /tickets and of an incremental pull made meanwhile by a probe in this process.
// BENCH_DIALECT=postgres (with TEST_POSTGRES_URL) runs it on PostgreSQL; BENCH_SERVER_PROFILE and
// BENCH_SERVER_NODE_OPTIONS as in lib.ts serverExecArgv; PULL_THREAD=0 answers pulls on the server's
// main thread. Prints one JSON object.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pullThreadMode } from '../server/src/config.ts';
import { openDatabase } from '../server/src/db/database.ts';
import { createPostgresDatabase } from '../server/test/harness.ts';
import { PROCESS_PASSWORD, startServerProcess } from '../server/test/process.ts';
import { cpuSeconds, serverExecArgv, stats } from './lib.ts';

const CONNECTIONS = 4;
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const REPLIES = Number(process.env.BENCH_REPLIES ?? 10_000);
// Replies a second all agents together write: above what the connections can send, so a backlog builds.
const OFFERED_PER_SECOND = Number(process.env.BENCH_OFFERED ?? 1_000);
const dialect = process.env.BENCH_DIALECT === 'postgres' ? 'postgres' : 'sqlite';


const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-bench-outbox-'));
const pg = dialect === 'postgres' ? await createPostgresDatabase(process.env.TEST_POSTGRES_URL!) : undefined;
const server = await startServerProcess({ dataDir, databaseUrl: pg?.url, guard: false, execArgv: serverExecArgv() });
const concurrency = Number(process.env.OUTBOX_CONCURRENCY ?? 4);
try {
  const login = await server.request('POST', '/auth/login', { body: { email: 'admin@demo.zapdesk.local', password: PROCESS_PASSWORD } });
  const token = login.body.token as string;
  const userId = login.body.user.id as number;
  const call = async (method: string, route: string, body?: unknown) => {
    const res = await server.request(method, route, { token, body });
    if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  // Four connections (the demo's and three more), each send taking LATENCY_MS; four open tickets per client, one per connection.
  const connections: number[] = ((await call('GET', '/whatsapp')) as { id: number }[]).map((c) => c.id).slice(0, 1);
  while (connections.length < CONNECTIONS) {
    const created = await call('POST', '/whatsapp', { name: `Bench line ${connections.length}`, provider: 'simulator' });
    await call('POST', `/whatsappsession/${created.id}`);
    await call('POST', `/simulator/connections/${created.id}/scan`);
    connections.push(created.id);
  }
  for (const id of connections) await call('POST', `/simulator/connections/${id}/faults`, { sendLatencyMs: LATENCY_MS });
  const tickets: number[][] = [];
  for (let k = 0; k < CLIENTS; k++) {
    const mine: number[] = [];
    for (const [c, connectionId] of connections.entries()) {
      const contact = await call('POST', '/contacts', { name: `Bench ${k}-${c}`, number: `5511944${String(k).padStart(3, '0')}${String(c).padStart(3, '0')}` });
      mine.push((await call('POST', '/tickets', { contactId: contact.id, status: 'open', whatsappId: connectionId })).id);
    }
    tickets.push(mine);
  }

  // The probe's pull starts from the view as it stands (an incremental pull each time after).
  const pullBody = (cookie: unknown) => ({ pullVersion: 1, schemaVersion: '', profileID: 'probe', clientGroupID: 'bench-probe', cookie });
  let cookie = (await call('POST', '/sync/pull', pullBody(null))).cookie;

  const cpuBefore = cpuSeconds(server.child.pid!);
  const pushers = fork(fileURLToPath(new URL('./outbox-pushers.ts', import.meta.url)), [JSON.stringify({ url: server.url, token, userId, clients: CLIENTS, perClient: REPLIES / CLIENTS, ratePerClient: OFFERED_PER_SECOND / CLIENTS, tickets })], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let pushOut = '';
  pushers.stdout!.on('data', (d) => (pushOut += d));
  const pushersDone = new Promise<void>((resolve, reject) => pushers.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`pushers exited ${code}`)))));

  // The probe: a ticket list and an incremental pull, one after the other, until everything was sent.
  const { db } = openDatabase(pg?.url ?? path.join(dataDir, 'zapdesk.db'));
  const waiting = () => db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const list: number[] = [];
  const pulls: number[] = [];
  let pushing = true;
  void pushersDone.then(() => (pushing = false), () => (pushing = false));
  // BENCH_PROBE=0 leaves the probe out (to see what it costs the server).
  const probing = process.env.BENCH_PROBE !== '0';
  for (;;) {
    if (!probing) {
      if (!pushing && Number((await waiting()).n) === 0) break;
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    let at = performance.now();
    const tickets = await server.request('GET', '/tickets?status=open&showAll=true', { token });
    list.push(performance.now() - at);
    if (tickets.status !== 200) throw new Error(`GET /tickets ${tickets.status}`);
    at = performance.now();
    const pulled = await server.request('POST', '/sync/pull', { token, body: pullBody(cookie) });
    pulls.push(performance.now() - at);
    cookie = pulled.body.cookie;
    if (!pushing && Number((await waiting()).n) === 0) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  await pushersDone;
  const cpuAfter = cpuSeconds(server.child.pid!);
  const pushed = JSON.parse(pushOut.trim().split('\n').at(-1)!) as { started: number; ended: number; accepted: number; latencies: number[]; batchSizes: number[]; cpuSeconds: number };

  // What reached the network, per connection, and the rows: duplicates and losses.
  const network: { connectionId: number; body: string; at: number }[] = [];
  for (const id of connections) {
    const entries = (await call('GET', `/simulator/outbox?connectionId=${id}`)) as { body: string; timestamp: string }[];
    for (const e of entries) if (e.body.startsWith('bench ')) network.push({ connectionId: id, body: e.body, at: Date.parse(e.timestamp) });
  }
  const seen = new Map<string, number>();
  for (const e of network) seen.set(e.body, (seen.get(e.body) ?? 0) + 1);
  const rows = await db.selectFrom('messages').select(['messages.body', 'messages.sendStatus']).where('messages.body', 'like', 'bench %').execute();
  const lost = rows.filter((r) => r.sendStatus !== 'sent' || !seen.has(r.body)).length + (pushed.accepted - rows.length);
  await db.destroy();

  const first = Math.min(...network.map((e) => e.at));
  const last = Math.max(...network.map((e) => e.at));
  const perConnection = connections.map((id) => {
    const mine = network.filter((e) => e.connectionId === id).map((e) => e.at);
    const span = (Math.max(...mine) - Math.min(...mine)) / 1000;
    return { connectionId: id, sent: mine.length, perSecond: Number((mine.length / span).toFixed(1)) };
  });
  const allowed = (CONNECTIONS * concurrency * 1000) / LATENCY_MS;
  const throughput = network.length / ((last - first) / 1000);
  console.log(
    JSON.stringify({
      dialect,
      connections: CONNECTIONS,
      sendLatencyMs: LATENCY_MS,
      dispatcherConcurrencyPerConnection: concurrency,
      // When the server answers pulls on its pull thread (PULL_THREAD, server/src/sync/README.md).
      pullThread: pullThreadMode(process.env.PULL_THREAD),
      clients: CLIENTS,
      replies: REPLIES,
      offeredRepliesPerSecond: OFFERED_PER_SECOND,
      pushModel: 'Replicache-like: one push in flight per client, the replies typed meanwhile sent together',
      repliesAccepted: pushed.accepted,
      pushRequests: pushed.batchSizes.length,
      repliesPerPush: stats(pushed.batchSizes),
      pushSeconds: Number(((pushed.ended - pushed.started) / 1000).toFixed(2)),
      acceptedPerSecond: Number((pushed.accepted / ((pushed.ended - pushed.started) / 1000)).toFixed(1)),
      pushMs: stats(pushed.latencies),
      dispatch: {
        sent: network.length,
        seconds: Number(((last - first) / 1000).toFixed(2)),
        perSecond: Number(throughput.toFixed(1)),
        allowedPerSecond: allowed,
        shareOfAllowed: Number((throughput / allowed).toFixed(3)),
        perConnection,
        lagAfterLastPushMs: Math.round(last - pushed.ended),
        // While the pushes came in, and after the last one (the backlog alone).
        whilePushingPerSecond: Number((network.filter((e) => e.at <= pushed.ended).length / ((pushed.ended - first) / 1000)).toFixed(1)),
        afterPushingPerSecond: Number((network.filter((e) => e.at > pushed.ended).length / Math.max(0.001, (last - pushed.ended) / 1000)).toFixed(1)),
      },
      duplicates: [...seen.values()].filter((n) => n > 1).length,
      lost,
      duringBurst: { getTicketsMs: stats(list), pullMs: stats(pulls) },
      serverCpuSeconds: Number((cpuAfter - cpuBefore).toFixed(2)),
      // The pushing clients' process, on the same two cores (its start-up included).
      pushersCpuSeconds: Number(pushed.cpuSeconds.toFixed(2)),
      cpus: cpus().length,
      loadavg: loadavg().map((l) => Number(l.toFixed(2))),
    }),
  );
} finally {
  await server.kill('SIGTERM');
  await pg?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
