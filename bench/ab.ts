// `npm run -s bench:ab -- <benchmark> <refA> <refB> [pairs]`: one benchmark of two commits, run
// in interleaved pairs, each commit from a checkout of its own (a git worktree beside this one, on
// the same installed packages), the order alternating from pair to pair. On a shared 2-core VM the
// same commit swings by a third between two runs, and drifts over minutes: one run of each, or a run
// of all the first's before all the second's, tells nothing. Prints one JSON object: for every
// number the benchmark reports, each side's values and mean, and in how many pairs A's was larger.
// The worktrees are removed at the end, whatever happened.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBenchFile } from './run-file.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORKSPACES = ['cli', 'server', 'sync', 'web'];

const [name, refA, refB, pairsArg] = process.argv.slice(2);
if (!name || !refA || !refB) {
  console.error('usage: npm run -s bench:ab -- <benchmark> <refA> <refB> [pairs, default 6]   e.g. bench:ab -- flows c2ca512 HEAD 8');
  process.exit(2);
}
const pairs = Number(pairsArg ?? 6);
if (!Number.isInteger(pairs) || pairs < 1) {
  console.error(`pairs must be a positive whole number, got '${pairsArg}'`);
  process.exit(2);
}

const git = (...args: string[]) => execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' }).trim();

/** A checkout of `ref` that uses this checkout's installed packages (its own workspaces' code). */
function checkout(ref: string, dir: string): string {
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  git('worktree', 'add', '--detach', '--quiet', dir, commit);
  const modules = path.join(dir, 'node_modules');
  mkdirSync(path.join(modules, '@zapdesk'), { recursive: true });
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry !== '@zapdesk') symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  for (const ws of WORKSPACES) {
    symlinkSync(path.join('..', '..', ws), path.join(modules, '@zapdesk', ws));
    const own = path.join(ROOT, ws, 'node_modules');
    if (existsSync(own)) symlinkSync(own, path.join(dir, ws, 'node_modules'));
  }
  return commit;
}

/** The numbers of a benchmark's JSON, by dotted path. */
function numbers(value: unknown, prefix = '', out: Record<string, number> = {}): Record<string, number> {
  if (typeof value === 'number') out[prefix] = value;
  else if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) numbers(v, prefix ? `${prefix}.${k}` : k, out);
  }
  return out;
}

function runOnce(dir: string): Record<string, number> {
  const file = path.join(dir, 'bench', `${name}.bench.ts`);
  if (!existsSync(file)) throw new Error(`${path.relative(dir, file)} does not exist in ${dir}`);
  const run = runBenchFile(file, dir);
  if (!run.ok) throw new Error(`${name} in ${dir}: ${run.error}`);
  return numbers(run.result);
}

const base = mkdtempSync(path.join(tmpdir(), 'zapdesk-bench-ab-'));
const dirs = { A: path.join(base, 'a'), B: path.join(base, 'b') };
try {
  const commits = { A: checkout(refA, dirs.A), B: checkout(refB, dirs.B) };
  const runs: Record<'A' | 'B', Record<string, number>[]> = { A: [], B: [] };
  for (let i = 0; i < pairs; i++) {
    for (const side of i % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
      runs[side].push(runOnce(dirs[side]));
      console.error(`pair ${i + 1}/${pairs}: ${side} done`);
    }
  }
  const mean = (xs: number[]) => Number((xs.reduce((s, x) => s + x, 0) / xs.length).toFixed(3));
  const metrics: Record<string, { A: number[]; B: number[]; meanA: number; meanB: number; aLargerInPairs: number }> = {};
  for (const key of Object.keys(runs.A[0]!)) {
    const A = runs.A.map((r) => r[key]!);
    const B = runs.B.map((r) => r[key]!);
    if (A.some((x) => x === undefined) || B.some((x) => x === undefined)) continue;
    metrics[key] = { A, B, meanA: mean(A), meanB: mean(B), aLargerInPairs: A.filter((a, i) => a > B[i]!).length };
  }
  console.log(JSON.stringify({ benchmark: name, A: { ref: refA, commit: commits.A }, B: { ref: refB, commit: commits.B }, pairs, order: 'A first in odd pairs, B first in even ones', metrics }));
} catch (err) {
  console.error(`error: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  process.exitCode = 1;
} finally {
  for (const dir of Object.values(dirs)) {
    if (existsSync(dir)) {
      try {
        git('worktree', 'remove', '--force', dir);
      } catch {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  git('worktree', 'prune');
  rmSync(base, { recursive: true, force: true });
}
