// One benchmark file in a process of its own, with `npm start`'s Node flags (most benchmarks run the
// server in their own process), from `cwd`: its result is the last JSON line it prints; anything
// before it is progress. Used by run.ts (`npm run bench`) and ab.ts (`npm run bench:ab`).
import { spawnSync } from 'node:child_process';
import { startFlags } from '../server/test/process.ts';

export function runBenchFile(file: string, cwd?: string): { ok: true; result: unknown } | { ok: false; error: string } {
  const run = spawnSync(process.execPath, [...startFlags(), '--import', 'tsx', file], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  const last = run.stdout.trim().split('\n').reverse().find((l) => l.startsWith('{'));
  if (!last) return { ok: false, error: `no JSON output (exit ${run.status})` };
  try {
    return { ok: true, result: JSON.parse(last) };
  } catch {
    return { ok: false, error: `unparseable output (exit ${run.status})` };
  }
}
