// Company webhooks end to end (issue 18): the real server as a child process on a temp data dir,
// a local receiver (node:http) answering every delivery after 50 ms, a webhook for
// `message.received`, and 10,000 customer messages from 1,000 contacts over 10 simulator
// connections (so 10,000 events, in order per ticket). The events are stored first with the worker
// idle (WEBHOOK_CONCURRENCY=0: the ingest over HTTP is slower than the deliveries and would be what
// is measured); the server then starts with its usual worker and drains them, is killed (SIGKILL)
// once a third arrived, and starts again on the same data: rows it had in flight are posted again
// with the same event id. Reports deliveries/s before the kill and after the restart, raw
// redeliveries (the same event id received again), lost events, and duplicated events after
// de-duplication by event id (two event ids for one message).
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
const CONNECTIONS = 10;
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

async function startServer(dataDir: string, port: number, databaseUrl: string | undefined, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), WEB_PORT: String(await freePort()), DATA_DIR: dataDir, ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD, SEED_DEMO: '0', SIMULATOR: '1', RATE_LIMIT_PER_IP: '1000000', WEBHOOKS_ALLOW_PRIVATE: '1', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env },
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

const exited = (child: ChildProcess) => new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(undefined) : child.once('exit', r)));

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-bench-webhooks-'));
  const pgdb = dialect === 'postgres' ? await createPostgresDatabase(process.env.TEST_POSTGRES_URL!) : undefined;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const receiver = await startReceiver({ latencyMs: LATENCY_MS });
  const loadBefore = loadavg()[0];
  // Phase 1: the events are produced while the worker claims nothing (WEBHOOK_CONCURRENCY=0), so
  // the deliveries below run from a backlog: what is measured is the worker, not the ingest.
  let server = await startServer(dataDir, port, pgdb?.url, { WEBHOOK_CONCURRENCY: '0' });
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
  // Several connections: a connection's messages are stored in order, one after the other.
  const connections: number[] = [];
  for (let c = 0; c < CONNECTIONS; c++) {
    const created = await api('POST', '/whatsapp', { name: `Bench line ${c}`, provider: 'simulator' });
    const id = Number(created.body.id);
    await api('POST', `/whatsappsession/${id}`);
    await api('POST', `/simulator/connections/${id}/scan`, { number: `55119000${String(c).padStart(5, '0')}` });
    connections.push(id);
  }
  const hook = await api('POST', '/webhooks', { name: 'Bench receiver', url: receiver.url, events: ['message.received'] });
  if (hook.status !== 201) throw new Error(`webhook not created: ${JSON.stringify(hook.body)}`);

  const contact = (i: number) => i % CONTACTS;
  const message = (i: number) => ({ connectionId: connections[contact(i) % CONNECTIONS]!, from: `55119${String(70000000 + contact(i)).padStart(8, '0')}`, name: `Contact ${contact(i)}`, body: `message ${i}`, id: `BENCH${i}` });
  const acked = new Set<number>();
  async function send(indexes: number[]) {
    let next = 0;
    const worker = async () => {
      while (next < indexes.length) {
        const i = indexes[next++]!;
        const res = await api('POST', '/simulator/messages', message(i)).catch(() => undefined);
        if (res?.status === 200) acked.add(i);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  }
  const produceStart = performance.now();
  await send(Array.from({ length: EVENTS }, (_, i) => i));
  // A send the server refused (none expected) is sent again, as WhatsApp would.
  await send(Array.from({ length: EVENTS }, (_, i) => i).filter((i) => !acked.has(i)));
  const produceS = (performance.now() - produceStart) / 1000;
  server.kill('SIGTERM');
  await exited(server);

  // Phase 2: the worker at its usual concurrency drains the backlog; SIGKILL once a third arrived.
  const unique = () => new Set(receiver.received.map((r) => r.delivery)).size;
  const drainStart = Date.now();
  server = await startServer(dataDir, port, pgdb?.url);
  const killAt = Math.floor(EVENTS / 3);
  while (unique() < killAt) await sleep(2);
  server.kill('SIGKILL');
  await exited(server);
  const killedAfter = receiver.received.length;
  const killedAt = Date.now();
  const firstAt = receiver.received[0]?.at ?? drainStart;

  // Phase 3: started again on the same data: rows that were in flight are posted again (same event id).
  await sleep(200);
  const restartAt = Date.now();
  server = await startServer(dataDir, port, pgdb?.url);
  const restartedAt = Date.now();
  let last = -1;
  let quietSince = performance.now();
  while (unique() < EVENTS && performance.now() - quietSince < 15_000) {
    if (receiver.received.length !== last) {
      last = receiver.received.length;
      quietSince = performance.now();
    }
    await sleep(20);
  }
  const lastAt = receiver.received.at(-1)?.at ?? restartedAt;
  await sleep(1_000);
  const serverCpu = cpuSeconds(server.pid!);

  const byEvent = new Map<string, number>();
  const eventsOfMessage = new Map<string, Set<string>>();
  for (const r of receiver.received) {
    byEvent.set(r.delivery, (byEvent.get(r.delivery) ?? 0) + 1);
    const key = String((r.json.data as { body?: string }).body);
    if (!eventsOfMessage.has(key)) eventsOfMessage.set(key, new Set());
    eventsOfMessage.get(key)!.add(r.delivery);
  }
  const afterRestart = receiver.received.filter((r) => r.at >= restartAt);
  const firstAfterRestart = afterRestart[0]?.at ?? restartedAt;
  const result = {
    dialect,
    events: EVENTS,
    contacts: CONTACTS,
    connections: CONNECTIONS,
    receiverLatencyMs: LATENCY_MS,
    webhookConcurrency: 100,
    producedPerSecond: Math.round(EVENTS / produceS),
    received: receiver.received.length,
    uniqueEvents: byEvent.size,
    uniqueMessages: eventsOfMessage.size,
    lost: EVENTS - eventsOfMessage.size,
    duplicatedAfterDedup: byEvent.size - eventsOfMessage.size,
    rawRedeliveries: receiver.received.length - byEvent.size,
    non2xx: receiver.received.filter((r) => r.status !== 200).length,
    killedAfterDeliveries: killedAfter,
    beforeKillDeliveriesPerSecond: Math.round(killedAfter / Math.max(0.001, (killedAt - firstAt) / 1000)),
    restartToFirstDeliveryS: Number(((firstAfterRestart - restartAt) / 1000).toFixed(2)),
    afterRestartDeliveriesPerSecond: Math.round(afterRestart.length / Math.max(0.001, (lastAt - firstAfterRestart) / 1000)),
    serverCpuMsPerDeliveryAfterRestart: Number(((serverCpu * 1000) / Math.max(1, afterRestart.length)).toFixed(3)),
    loadavg: { before: loadBefore, after: loadavg()[0] },
  };
  server.kill('SIGTERM');
  await exited(server);
  await receiver.close();
  await pgdb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(JSON.stringify(result));
}

await main();
