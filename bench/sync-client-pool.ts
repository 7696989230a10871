// The coordinator's side of the poke-to-visible clients (sync.bench.ts): the clients are split over
// several child processes (bench/sync-clients.ts), each an event loop of its own, because 50 real
// users are 50 machines: hosted in one process, every client's pull waited for the others' JSON
// parse and patch apply on one thread, which no real user does.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type Sighting = { name: string; at: number };
export type WorkerMsg =
  | { type: 'ready'; connectMs: number }
  | { type: 'measuring' }
  | { type: 'cpu'; ms: number }
  | { type: 'clock'; at: number }
  | { type: 'seen'; items: Sighting[] }
  | { type: 'error'; error: string };
type Start = { url: string; users: { email: string; password: string }[]; watchKey: string; expectedRows: number };

const now = () => performance.timeOrigin + performance.now();
const script = fileURLToPath(new URL('./sync-clients.ts', import.meta.url));

function startWorker(index: number) {
  // BENCH_CLIENT_PROFILE=<file.cpuprofile>: one profile per process, <file>.<index>.cpuprofile.
  const profile = process.env.BENCH_CLIENT_PROFILE;
  // Production mode, as the clients users run: the CLI sets it (cli/bin/zapdesk.js) and the web
  // build has it compiled in; in development Replicache deep-freezes and re-checks every value.
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production' };
  if (profile) env.BENCH_CLIENT_PROFILE = profile.replace(/(\.cpuprofile)?$/, `.${index}.cpuprofile`);
  const child: ChildProcess = fork(script, [], { execArgv: ['--import', 'tsx'], env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const listeners = new Set<(m: WorkerMsg) => void>();
  child.on('message', (m: WorkerMsg) => listeners.forEach((l) => l(m)));
  const next = (type: WorkerMsg['type'], timeoutMs: number) =>
    new Promise<WorkerMsg>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`client process ${index}: timeout waiting for '${type}'`)), timeoutMs);
      const l = (m: WorkerMsg) => {
        if (m.type === 'error') reject(new Error(`client process ${index}: ${m.error}`));
        if (m.type !== type) return;
        clearTimeout(timer);
        listeners.delete(l);
        resolve(m);
      };
      listeners.add(l);
    });
  return { child, listeners, next };
}

type Worker = ReturnType<typeof startWorker>;

/** How far a worker's clock (timeOrigin + now) is from ours: the best of a few IPC round trips. */
async function measureClockOffset(w: Worker) {
  let best = { rtt: Infinity, offset: 0 };
  for (let i = 0; i < 20; i++) {
    const reply = w.next('clock', 10_000);
    const t0 = now();
    w.child.send({ type: 'clock' });
    const { at } = (await reply) as { at: number };
    const t1 = now();
    if (t1 - t0 < best.rtt) best = { rtt: t1 - t0, offset: at - (t0 + t1) / 2 };
  }
  return best;
}

/** The users dealt over `processes` child processes in turn, so the shares differ by at most one. */
export async function startClientPool(processes: number, start: Start) {
  const shares = Array.from({ length: processes }, (_, i) => start.users.filter((_, u) => u % processes === i)).filter((s) => s.length > 0);
  const workers = shares.map((_, i) => startWorker(i));
  const ready = await Promise.all(
    workers.map((w, i) => {
      const r = w.next('ready', 300_000);
      w.child.send({ type: 'start', ...start, users: shares[i] });
      return r as Promise<{ connectMs: number }>;
    }),
  );
  const clocks = await Promise.all(workers.map(measureClockOffset));
  const sightings = new Set<(s: Sighting[]) => void>();
  for (const w of workers) w.listeners.add((m) => m.type === 'seen' && sightings.forEach((l) => l(m.items)));

  return {
    clientsPerProcess: shares.map((s) => s.length),
    connectMs: Math.max(...ready.map((r) => r.connectMs)),
    /** The worst clock disagreement seen, and the round trip that bounds it (|error| ≤ rtt / 2). */
    clockOffsetMs: { maxAbs: Number(Math.max(...clocks.map((c) => Math.abs(c.offset))).toFixed(3)), maxRtt: Number(Math.max(...clocks.map((c) => c.rtt)).toFixed(3)) },
    onSightings(l: (s: Sighting[]) => void) {
      sightings.add(l);
      return () => sightings.delete(l);
    },
    async measure() {
      await Promise.all(workers.map((w) => {
        const m = w.next('measuring', 10_000);
        w.child.send({ type: 'measure' });
        return m;
      }));
    },
    /** The clients' CPU since measure(), summed over the processes. */
    async measured() {
      const cpu = await Promise.all(workers.map((w) => {
        const m = w.next('cpu', 10_000);
        w.child.send({ type: 'measured' });
        return m as Promise<{ ms: number }>;
      }));
      return cpu.reduce((sum, c) => sum + c.ms, 0);
    },
    async stop() {
      await Promise.all(workers.map((w) => {
        const exited = new Promise((r) => w.child.once('exit', r));
        w.child.send({ type: 'stop' });
        return exited;
      }));
    },
  };
}
