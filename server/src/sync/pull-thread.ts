// Pulls on a thread of their own (the main thread's side; pull-worker.ts is the thread's). A pull is
// reads (the views' listings, their diff, the rows that changed) and its answer's JSON: work that
// held the main thread, in turns with the pushes, the outbox and the inbound pipeline, while the
// server's second core sat idle. The thread reads through a read-only handle of its own (SQLite's
// WAL lets it see every commit of the writer here; on PostgreSQL a small pool) and keeps the sync
// store's caches; the few writes a pull makes (its CVR, a newer watermark, a new client group, the
// listings' collection) come back here to the database's one writer, where the CVRs of one turn
// still share a commit (cvr-writer.ts). The answer comes back as the JSON text the client gets.
// Until the thread is ready, and if it dies (it is started again, a little later each time), pulls
// run on the main thread as before, so no pull is ever refused for it. Rules in README.md.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AppDeps } from '../context.ts';
import type { Database } from '../db/database.ts';
import { writeTime } from '../db/write.ts';
import { createCvrWriter, type CvrWriter } from './cvr-writer.ts';
import type { PullRequest, SessionRef } from './pull.ts';
import { errorFromWire, errorToWire, type FromPullThread, type PullThreadData, type ToPullThread } from './pull-wire.ts';

/** A pull's answer: the JSON text of the Replicache response, and its cookie (absent for VersionNotSupported). */
export type PullAnswer = { text: string; cookie?: unknown };

export type PullThread = {
  /** Whether the thread takes pulls now (it started and is alive). */
  readonly ready: boolean;
  /**
   * Whether a pull should go to the thread now: it is ready and, unless `mode` is 'always', the main
   * thread is busy writing (see BUSY_ON).
   */
  readonly takesPulls: boolean;
  /** The pull, answered by the thread; rejects with PullThreadGone if the thread died meanwhile. */
  pull(session: SessionRef, request: PullRequest): Promise<PullAnswer>;
  /** Pulls the thread answered, and how many times it was started (the benchmark and tests read them). */
  readonly stats: { answered: number; starts: number };
  /** Resolves once the thread is ready (tests, benchmarks). */
  whenReady(): Promise<void>;
  /** Ends the thread as a crash would (tests): it is started again as after one. */
  kill(): Promise<void>;
  /** Waits for the pulls under way (a few seconds at most), then ends the thread. */
  stop(): Promise<void>;
};

/** The thread died with this pull under way: the caller runs it itself. */
export class PullThreadGone extends Error {
  constructor() {
    super('The pull thread stopped.');
  }
}

/**
 * When pulls go to the thread: 'busy' while the main thread is busy writing (PULL_THREAD=1, the
 * default), 'always' (tests, PULL_THREAD=always).
 */
export type PullThreadMode = 'busy' | 'always';

/**
 * A pull on the thread costs the answer's trip between threads and a trip to the main thread for
 * its CVR's write, each waiting for the main thread's event loop, and more CPU in all: when the
 * main thread's time goes to pulls themselves, they are better answered there (`npm run -s bench
 * sync`, 50 poked clients: poke-to-visible p95 71–86 ms on the main thread, 86–109 ms on the
 * thread; 0.72–0.78 against 1.2 ms of CPU per pull). Under a stream of writes the main thread's
 * time is what is short (`npm run -s bench outbox`: 9–14 % more sends; README.md). So
 * pulls move to the thread once writes took BUSY_ON of the main thread's last second (db/write.ts
 * writeTime), and back below BUSY_OFF (apart, so that they do not go back and forth).
 */
const BUSY_ON = 0.3;
const BUSY_OFF = 0.1;
const LOAD_SAMPLE_MS = 250;
/** Weight of the newest sample in the running utilisation (four samples: about a second). */
const LOAD_WEIGHT = 0.25;

/** Waits before starting a thread again after it died: doubles each time, up to a minute. */
const RESTART_FIRST_MS = 1_000;
const RESTART_MAX_MS = 60_000;
/** How long stop() waits for the pulls under way. */
const STOP_WAIT_MS = 5_000;

// The thread runs TypeScript as this file does: under tsx (npm start) or vitest, this file is .ts,
// and the thread's entry is loaded through tsx's loader, registered inside the thread.
const ENTRY = new URL(import.meta.url.endsWith('.ts') ? './pull-worker.ts' : './pull-worker.js', import.meta.url).href;
const BOOT = ENTRY.endsWith('.ts')
  ? `import(${JSON.stringify(tsxApi())}).then(({ register }) => { register(); return import(${JSON.stringify(ENTRY)}); })`
  : `import(${JSON.stringify(ENTRY)})`;

/** tsx's ESM API (`tsx/esm/api` as an import resolves it: its package's exports map). */
function tsxApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(path.join(path.dirname(manifest), exports['./esm/api']!.import.default)).href;
}

export function startPullThread(deps: Pick<AppDeps, 'db' | 'dialect' | 'config' | 'log'>, mode: PullThreadMode = 'busy'): PullThread {
  const { log } = deps;
  const load = mode === 'busy' ? watchWrites(deps.db) : undefined;
  const writer: CvrWriter = createCvrWriter(deps.db, deps.dialect);
  const pending = new Map<number, { resolve(answer: PullAnswer): void; reject(err: unknown): void }>();
  let nextId = 1;
  let worker: Worker | undefined;
  let ready = false;
  let stopped = false;
  let restartMs = RESTART_FIRST_MS;
  let restartTimer: NodeJS.Timeout | undefined;
  let exited: Promise<void> = Promise.resolve();
  const stats = { answered: 0, starts: 0 };
  let readyWaiters: (() => void)[] = [];

  const send = (w: Worker, m: ToPullThread) => w.postMessage(m);

  /** A write the thread asks for, done on this thread's writer, and its outcome sent back. */
  async function doWrite(w: Worker, m: Extract<FromPullThread, { kind: 'write' }>) {
    try {
      let value = await (writer[m.op] as (...args: unknown[]) => Promise<unknown>)(...m.args);
      // A batch's failed rows: their errors as they cross.
      if (m.op === 'saveCvrBatch') value = (value as Awaited<ReturnType<CvrWriter['saveCvrBatch']>>).map((o) => (o.ok ? o : { ok: false, error: errorToWire(o.error) }));
      send(w, { kind: 'wrote', id: m.id, ok: true, value });
    } catch (err) {
      send(w, { kind: 'wrote', id: m.id, ok: false, error: errorToWire(err) });
    }
  }

  function start() {
    const data: PullThreadData = { databaseUrl: deps.config.databaseUrl };
    const w = new Worker(BOOT, { eval: true, workerData: data, execArgv: [], name: 'zapdesk-pulls' });
    worker = w;
    stats.starts++;
    let settle: () => void = () => undefined;
    exited = new Promise<void>((resolve) => (settle = resolve));
    w.on('message', (m: FromPullThread) => {
      if (m.kind === 'ready') {
        ready = true;
        restartMs = RESTART_FIRST_MS;
        for (const resolve of readyWaiters) resolve();
        readyWaiters = [];
      } else if (m.kind === 'pulled') {
        const waiting = pending.get(m.id);
        pending.delete(m.id);
        stats.answered++;
        if (m.ok) waiting?.resolve({ text: m.text, cookie: m.cookie });
        else waiting?.reject(errorFromWire(m.error));
      } else if (m.kind === 'write') void doWrite(w, m);
      else if (m.kind === 'log') log[m.level](m.msg, m.data);
    });
    w.on('error', (err) => log.error('pull thread failed', { error: err.stack ?? String(err) }));
    w.on('exit', (code) => {
      ready = false;
      worker = undefined;
      // Its pulls under way run on the main thread instead (PullThreadGone).
      for (const waiting of pending.values()) waiting.reject(new PullThreadGone());
      pending.clear();
      settle();
      if (stopped) return;
      log.error('pull thread stopped; pulls run on the main thread until it is back', { code, restartInMs: restartMs });
      restartTimer = setTimeout(start, restartMs);
      restartTimer.unref();
      restartMs = Math.min(RESTART_MAX_MS, restartMs * 2);
    });
    // The thread must not keep a stopping process alive.
    w.unref();
  }

  start();

  return {
    get ready() {
      return ready && !stopped;
    },
    get takesPulls() {
      return ready && !stopped && (load === undefined || load.busy);
    },
    stats,
    whenReady() {
      return ready ? Promise.resolve() : new Promise<void>((resolve) => readyWaiters.push(resolve));
    },
    async kill() {
      const w = worker;
      if (!w) return;
      const gone = exited;
      await w.terminate();
      await gone;
    },
    pull(session, request) {
      const w = worker;
      if (!w || !ready || stopped) return Promise.reject(new PullThreadGone());
      return new Promise<PullAnswer>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        send(w, { kind: 'pull', id, session, request });
      });
    },
    async stop() {
      stopped = true;
      load?.stop();
      if (restartTimer) clearTimeout(restartTimer);
      const w = worker;
      if (!w) return;
      const until = Date.now() + STOP_WAIT_MS;
      while (pending.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      send(w, { kind: 'stop' });
      const timeout = setTimeout(() => void w.terminate(), STOP_WAIT_MS);
      await exited;
      clearTimeout(timeout);
    },
  };
}

/** Whether this (the main) thread is busy writing: the share of time writes took, sampled and smoothed. */
function watchWrites(db: Database) {
  let last = writeTime(db);
  let at = performance.now();
  let utilisation = 0;
  const state = {
    busy: false,
    stop: () => clearInterval(timer),
  };
  const timer = setInterval(() => {
    const spent = writeTime(db);
    const now = performance.now();
    utilisation += LOAD_WEIGHT * (Math.min(1, (spent - last) / Math.max(1, now - at)) - utilisation);
    last = spent;
    at = now;
    if (!state.busy && utilisation >= BUSY_ON) state.busy = true;
    else if (state.busy && utilisation <= BUSY_OFF) state.busy = false;
  }, LOAD_SAMPLE_MS);
  timer.unref();
  return state;
}
