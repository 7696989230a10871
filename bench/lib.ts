// What several benchmarks measure alike: percentiles of a list of timings, a process's CPU time, and
// a pool of jobs run with a bounded number in flight.
import { readFileSync } from 'node:fs';
import http from 'node:http';

/** The p-th percentile (nearest rank) of `xs`, rounded to `digits`; null for an empty list. */
export function percentile(xs: number[], p: number, digits = 2): number | null {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(digits)) : null;
}

/** Count, p50, p95, p99 and max of a list of timings. */
export const stats = (xs: number[]) => ({ n: xs.length, p50: percentile(xs, 50), p95: percentile(xs, 95), p99: percentile(xs, 99), max: percentile(xs, 100) });

/** User plus system CPU seconds a process has used so far (Linux /proc). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Runs `total` jobs (job i for i = 0 … total-1) with at most `limit` in flight; each job's latency in ms, by i. */
export async function runPool(total: number, limit: number, job: (i: number) => Promise<unknown>): Promise<number[]> {
  const latencies = new Array<number>(total);
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const t0 = performance.now();
      await job(i);
      latencies[i] = performance.now() - t0;
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return latencies;
}

/**
 * Node flags for a benchmark's server process: BENCH_SERVER_PROFILE=<dir> writes a CPU profile there
 * when it stops; BENCH_SERVER_NODE_OPTIONS adds flags (e.g. `--require ./statement-timer.cjs`).
 */
export function serverExecArgv(): string[] {
  const profile = process.env.BENCH_SERVER_PROFILE;
  const extra = process.env.BENCH_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
  return [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), ...extra];
}

/**
 * A lean JSON client for a load generator that shares the machine with what it measures: node:http
 * over kept-alive sockets. fetch (undici) spent about a millisecond of this process's CPU per
 * request, CPU the servers under test then did not have. Resolves with the parsed answer; rejects
 * on a status of 300 or more.
 */
export function createJsonClient(maxSockets = 256) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  return (url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(url, { method, agent, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 500) >= 300) reject(new Error(`${method} ${url}: ${res.statusCode} ${text.slice(0, 300)}`));
          else resolve(text ? JSON.parse(text) : undefined);
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
}
