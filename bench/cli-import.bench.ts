// `zapdesk contacts import` end to end (issue 7): a generated 100,000-row csv and xlsx (with bad
// rows) imported by the CLI as a process, against the real server started as its own process (as
// `npm start` runs it) on a fresh database. Measures, per file: wall time from spawning the CLI to
// its exit (start-up, upload, the server's work, the report) as rows/s, and the CLI's peak RSS
// sampled from /proc (VmHWM, the kernel's high-water mark, read until exit), alone and with its
// child processes (tsx's esbuild service), and the CPU seconds of the CLI and of the server for
// each import (wall time on a shared machine says more about the neighbours than about us), and the
// server's peak RSS during each import (it reads the upload as it arrives). A
// rerun of the csv shows the skip path. The `login` run before the imports builds the CLI's bundle
// when the sources changed since the last run (cli/bin/zapdesk.js), as a user's first run after an
// update does; the timed imports run the cached bundle, as every later run does.
// Target: ≥ 15,000 rows/s end to end, < 200 MB for the CLI.
// BENCH_ROWS changes the size; BENCH_DIALECT=postgres (with TEST_POSTGRES_URL) runs on PostgreSQL.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPostgresDatabase } from '../server/test/harness.ts';
import { generateCsv, generateXlsx } from '../server/test/spreadsheets.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const dialect = process.env.BENCH_DIALECT ?? 'sqlite';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'cli/bin/zapdesk.js');
const PASSWORD = 'Bench-Pass-1';
const TARGET = { rowsPerSecond: 15_000, peakRssMb: 200 };

async function generate(dir: string) {
  const [csv, xlsx] = await Promise.all([
    generateCsv({ rows: ROWS, badRows: true, dir, name: 'contacts.csv' }),
    generateXlsx({ rows: ROWS, badRows: true, dir, name: 'contacts.xlsx', numberOffset: ROWS }),
  ]);
  console.log(JSON.stringify({ csvGood: csv.goodCount, xlsxGood: xlsx.goodCount }));
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function startServerProcess(dataDir: string, databaseUrl: string | undefined): Promise<{ url: string; child: ChildProcess }> {
  const [port, webPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), WEB_PORT: String(webPort), DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, SEED_DEMO: '0', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const until = Date.now() + 120_000;
  while (!out.includes('listening on')) {
    if (child.exitCode !== null || Date.now() > until) throw new Error(`server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `http://127.0.0.1:${port}`, child };
}

/** kB of a /proc status field, 0 when the process is gone. */
function procKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system, all threads) a process has used so far; 0 when it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((t) => readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

/** One CLI run, sampled every 20 ms: its own peak (VmHWM) and the peak of its tree's summed RSS. */
function runCli(args: string[], home: string): Promise<{ code: number | null; stdout: string; stderr: string; seconds: number; cpuSeconds: number; peakMb: number; treePeakMb: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: home, LANG: 'C.UTF-8' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let hwm = 0;
    let tree = 0;
    let cpu = 0;
    const sample = () => {
      cpu = Math.max(cpu, cpuSeconds(child.pid!));
      hwm = Math.max(hwm, procKb(child.pid!, 'VmHWM'));
      tree = Math.max(tree, [child.pid!, ...childrenOf(child.pid!)].reduce((sum, pid) => sum + procKb(pid, 'VmRSS'), 0));
    };
    const sampler = setInterval(sample, 20);
    child.stdout.on('data', (d) => {
      sample();
      stdout += d;
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      resolve({ code, stdout, stderr, seconds, cpuSeconds: cpu, peakMb: Math.round(hwm / 1024), treePeakMb: Math.round(Math.max(tree, hwm) / 1024) });
    });
    child.stdin.end(args[0] === 'login' ? PASSWORD : '');
  });
}

/** Resets a process's RSS high-water mark to its current RSS (false where the kernel does not allow it). */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

async function importFile(file: string, home: string, serverPid: number) {
  const serverCpuBefore = cpuSeconds(serverPid);
  // The server's peak during this import alone: it streams the upload, so it should not grow with the file.
  const serverPeakReset = resetPeak(serverPid);
  const serverRssBeforeMb = Math.round(procKb(serverPid, 'VmRSS') / 1024);
  const run = await runCli(['contacts', 'import', file, '--json'], home);
  const serverCpu = cpuSeconds(serverPid) - serverCpuBefore;
  const serverPeakRssMb = Math.round(procKb(serverPid, 'VmHWM') / 1024);
  if (run.code !== 0) throw new Error(`import of ${file} failed (${run.code}): ${run.stderr}`);
  const summary = JSON.parse(run.stdout) as { rows: number; imported: number; skipped: number; rejected: number; seconds: number };
  return {
    rows: summary.rows,
    imported: summary.imported,
    skipped: summary.skipped,
    rejected: summary.rejected,
    seconds: Number(run.seconds.toFixed(2)),
    rowsPerSecond: Math.round(summary.rows / run.seconds),
    // From the upload's start to the report's end, as the CLI timed it (no process start-up).
    importSeconds: summary.seconds,
    // CPU time does not depend on what else the machine runs (the last sample before exit: a lower bound).
    cliCpuSeconds: Number(run.cpuSeconds.toFixed(2)),
    serverCpuSeconds: Number(serverCpu.toFixed(2)),
    rowsPerCpuSecond: Math.round(summary.rows / (run.cpuSeconds + serverCpu)),
    cliPeakRssMb: run.peakMb,
    cliTreePeakRssMb: run.treePeakMb,
    serverRssBeforeMb,
    // The kernel's high-water mark since the reset (since the server started when it could not be reset).
    serverPeakRssMb,
    serverPeakSince: serverPeakReset ? 'import start' : 'server start',
  };
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'zapdesk-bench-cli-import-'));
  let server: ChildProcess | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  try {
    const gen = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'generate', dir], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    if (gen.status !== 0) throw new Error('generating the files failed');
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      if (!process.env.TEST_POSTGRES_URL) throw new Error('BENCH_DIALECT=postgres needs TEST_POSTGRES_URL');
      const fresh = await createPostgresDatabase(process.env.TEST_POSTGRES_URL);
      databaseUrl = fresh.url;
      dropDatabase = fresh.drop;
    }
    const started = await startServerProcess(path.join(dir, 'data'), databaseUrl);
    server = started.child;
    const home = path.join(dir, 'home');
    const login = await runCli(['login', '--url', started.url, '--email', 'admin@zapdesk.local', '--password-stdin'], home);
    if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
    const loadBefore = loadavg().map((l) => Number(l.toFixed(2)));
    const pid = server.pid!;
    const csv = await importFile(path.join(dir, 'contacts.csv'), home, pid);
    const xlsx = await importFile(path.join(dir, 'contacts.xlsx'), home, pid);
    const rerunCsv = await importFile(path.join(dir, 'contacts.csv'), home, pid);
    console.log(
      JSON.stringify({
        dialect,
        rows: ROWS,
        loadAverage: { before: loadBefore, after: loadavg().map((l) => Number(l.toFixed(2))) },
        csv,
        xlsx,
        rerunCsv,
        target: TARGET,
        meetsTarget: [csv, xlsx].every((r) => r.rowsPerSecond >= TARGET.rowsPerSecond && r.cliPeakRssMb < TARGET.peakRssMb),
      }),
    );
  } finally {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    await dropDatabase?.();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'generate') await generate(process.argv[3]!);
else await main();
