// `npm start` runs this first (root "prestart"): it builds web/dist when it is missing or older than
// any source it is made from, so a fresh clone and a pulled change both start with a current UI.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const web = path.resolve(import.meta.dirname, '..');
const root = path.resolve(web, '..');
const stamp = path.join(web, 'dist', '.build-stamp');

// What the bundle is made from: the app, its config, and the shared sync/ code it imports.
const SOURCES = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'web/package.json', 'sync/src', 'package-lock.json'];

function newest(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const name of readdirSync(p)) {
    if (/\.test\.tsx?$/.test(name)) continue;
    max = Math.max(max, newest(path.join(p, name)));
  }
  return max;
}

export function isStale(): boolean {
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return SOURCES.some((s) => newest(path.join(root, s)) > built);
}

export function buildWeb(): void {
  const started = Date.now();
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--mode', 'production', '--logLevel', 'warn'], {
    cwd: web,
    stdio: 'inherit',
    // A development NODE_ENV in the shell would otherwise produce a development React build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error(`web build failed (exit ${result.status})`);
  writeFileSync(stamp, new Date().toISOString());
  console.log(`web app built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const lock = path.join(web, '.build-lock');
const LOCK_STALE_MS = 10 * 60_000;

/**
 * Builds web/dist when stale, one process at a time: e2e files running in parallel (and a second
 * `npm start`) wait for the build in progress instead of emptying dist/ under a server that serves it.
 */
export function ensureWebBuilt(): void {
  if (!isStale()) return;
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock left by a killed build is taken over once it is clearly abandoned.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(sleeper, 0, 0, 250);
    }
  }
  try {
    if (isStale()) {
      console.log('building the web app (web/dist is missing or stale)…');
      buildWeb();
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) ensureWebBuilt();
