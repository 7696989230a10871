// Company webhooks end to end (issue 18): the real server as a child process on a temp data dir,
// a local receiver (node:http) answering every delivery after 50 ms, a webhook for
// `message.received`, and 10,000 customer messages from 1,000 contacts through the simulator (so
// 10,000 events, in order per ticket). In the middle the server is killed (SIGKILL) and started
// again on the same data: rows it had in flight are posted again with the same event id. Every
// message is then sent again with its WhatsApp id (as WhatsApp redelivers what was not
// acknowledged): a message already stored is a no-op, so exactly 10,000 events must reach the
// receiver. Reports deliveries/s, raw redeliveries (the same event id received more than once),
// lost events and duplicated events after de-duplication by event id (two event ids for one message).
// Target: ≥ 1,000 deliveries/s with bounded concurrency (WEBHOOK_CONCURRENCY, 100), 0 lost, 0 duplicated.
// BENCH_EVENTS changes the size; BENCH_DIALECT=postgres (with TEST_POSTGRES_URL) runs on PostgreSQL.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPostgresDatabase } from '../server/test/harness.ts';
import { startReceiver } from '../server/test/webhook-receiver.ts';
import { cpuSeconds } from './lib.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const CONTACTS = Math.max(1, Math.floor(EVENTS / 10));
const IN_FLIGHT = 64;
const LATENCY_MS = 50;
const dialect = process.env.BENCH_DIALECT ?? 'sqlite';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EMAIL = 'bench@zapdesk.local';
const PASSWORD = 'Bench-Pass-1';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startServer(dataDir: string, port: number, databaseUrl: string | undefined): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), WEB_PORT: String(await freePort()), DATA_DIR: dataDir, ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD, SEED_DEMO: '0', SIMULATOR: '1', RATE_LIMIT_PER_IP: '1000000', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const until = Date.now() + 120_000;
  while (!out.includes('listening on')) {
    if (child.exitCode !== null || Date.now() > until) throw new Error(`server did not start: ${out}`);
    await sleep(100);
  }
  return child;
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-bench-webhooks-'));
  const pgdb = dialect === 'postgres' ? await createPostgresDatabase(process.env.TEST_POSTGRES_URL!) : undefined;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const receiver = await startReceiver({ latencyMs: LATENCY_MS });
  const loadBefore = loadavg()[0];
  let server = await startServer(dataDir, port, pgdb?.url);
  let token = '';
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(base + url, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  const login = async () => {
    token = String((await api('POST', '/auth/login', { email: EMAIL, password: PASSWORD })).body.token);
  };
  await login();
  const connection = await api('POST', '/whatsapp', { name: 'Bench line', provider: 'simulator' });
  const connectionId = Number(connection.body.id);
  await api('POST', `/whatsappsession/${connectionId}`);
  await api('POST', `/simulator/connections/${connectionId}/scan`, { number: '5511900009999' });
  const hook = await api('POST', '/webhooks', { name: 'Bench receiver', url: receiver.url, events: ['message.received'] });
  if (hook.status !== 201) throw new Error(`webhook not created: ${JSON.stringify(hook.body)}`);

  const message = (i: number) => ({ connectionId, from: `55119${String(70000000 + (i % CONTACTS)).padStart(8, '0')}`, name: `Contact ${i % CONTACTS}`, body: `message ${i}`, id: `BENCH${i}` });
  /** Sends messages [from, to) with IN_FLIGHT at once; a failed send (the server died) is left to the resend. */
  async function send(from: number, to: number, stop: () => boolean) {
    let next = from;
    const worker = async () => {
      while (next < to && !stop()) {
        const i = next++;
        await api('POST', '/simulator/messages', message(i)).catch(() => undefined);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    return next;
  }

  const started = performance.now();
  const unique = () => new Set(receiver.received.map((r) => r.delivery)).size;
  // Phase 1: half the messages, then SIGKILL once the receiver has taken a third of the events.
  let killed = false;
  const killAt = Math.floor(EVENTS / 3);
  const killer = (async () => {
    while (unique() < killAt) await sleep(5);
    server.kill('SIGKILL');
    killed = true;
  })();
  await send(0, EVENTS, () => killed);
  await killer;
  await new Promise((r) => (server.exitCode !== null ? r(undefined) : server.once('exit', r)));
  const receivedAtKill = receiver.received.length;
  const killedAtMs = performance.now() - started;
  // Phase 2: the server starts again on the same data; every message is sent again (stored ones are no-ops).
  server = await startServer(dataDir, port, pgdb?.url);
  const restartedAtMs = performance.now() - started;
  await login();
  await send(0, EVENTS, () => false);
  const sentAllMs = performance.now() - started;
  // Until every event arrived, or nothing new came for 15 s.
  let last = -1;
  let quietSince = performance.now();
  while (unique() < EVENTS && performance.now() - quietSince < 15_000) {
    if (receiver.received.length !== last) {
      last = receiver.received.length;
      quietSince = performance.now();
    }
    await sleep(50);
  }
  await sleep(1_000);
  const doneMs = performance.now() - started;
  const serverCpu = cpuSeconds(server.pid!);

  const byEvent = new Map<string, number>();
  const eventsOfMessage = new Map<string, Set<string>>();
  for (const r of receiver.received) {
    byEvent.set(r.delivery, (byEvent.get(r.delivery) ?? 0) + 1);
    const wid = String((r.json.data as { wid?: string; body?: string }).body);
    if (!eventsOfMessage.has(wid)) eventsOfMessage.set(wid, new Set());
    eventsOfMessage.get(wid)!.add(r.delivery);
  }
  // Delivery rate in the first run (first delivery to the kill) and over the whole run, restart included.
  const firstAt = receiver.received[0]?.at ?? 0;
  const lastAt = receiver.received.at(-1)?.at ?? 0;
  const killedAt = receiver.received[receivedAtKill - 1]?.at ?? firstAt;
  const uniqueEvents = byEvent.size;
  const result = {
    dialect,
    events: EVENTS,
    contacts: CONTACTS,
    receiverLatencyMs: LATENCY_MS,
    webhookConcurrency: Number(process.env.WEBHOOK_CONCURRENCY ?? 100),
    received: receiver.received.length,
    uniqueEvents,
    uniqueMessages: eventsOfMessage.size,
    lost: EVENTS - eventsOfMessage.size,
    duplicatedAfterDedup: uniqueEvents - eventsOfMessage.size,
    rawRedeliveries: receiver.received.length - uniqueEvents,
    non2xx: receiver.received.filter((r) => r.status !== 200).length,
    killedAfterDeliveries: receivedAtKill,
    killedAtS: Number((killedAtMs / 1000).toFixed(2)),
    restartedAtS: Number((restartedAtMs / 1000).toFixed(2)),
    firstRunDeliveriesPerSecond: Math.round(receivedAtKill / Math.max(0.001, (killedAt - firstAt) / 1000)),
    sentAllAtS: Number((sentAllMs / 1000).toFixed(2)),
    doneAtS: Number((doneMs / 1000).toFixed(2)),
    overallDeliveriesPerSecond: Math.round(uniqueEvents / Math.max(0.001, (lastAt - firstAt) / 1000)),
    serverCpuSecondsAfterRestart: serverCpu,
    loadavg: { before: loadBefore, after: loadavg()[0] },
  };
  server.kill('SIGTERM');
  await new Promise((r) => (server.exitCode !== null ? r(undefined) : server.once('exit', r)));
  await receiver.close();
  await pgdb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(JSON.stringify(result));
}

await main();
