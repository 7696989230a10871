// What several benchmarks measure alike: percentiles of a list of timings, a process's CPU time, and
// a pool of jobs run with a bounded number in flight.
import { readFileSync } from 'node:fs';

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
