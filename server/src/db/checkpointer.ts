// SQLite checkpoints on a thread of their own. In WAL mode every commit appends pages to the -wal
// file, and a checkpoint copies them back into the database file. Left to SQLite, the commit that
// passes `wal_autocheckpoint` does it on the writer's thread, which is the server's event loop:
// 50–80 ms during which no request, send or timer runs, every few seconds under a campaign. Here a
// worker thread with a connection of its own runs PASSIVE checkpoints (they never block the writer
// or readers) once a second once the WAL holds a few megabytes; the writer's own autocheckpoint
// stays as the backstop, and then finds the pages already copied.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export type CheckpointStats = { runs: number; framesCopied: number; failures: number };

export type Checkpointer = {
  readonly stats: CheckpointStats;
  /** Runs one checkpoint now (tests); resolves when it is done. */
  checkpoint(): Promise<void>;
  close(): Promise<void>;
};

export type CheckpointerOptions = {
  /** How often the WAL's size is looked at. */
  everyMs?: number;
  /** The worker starts, and checkpoints run, once the WAL file is this large. */
  fromBytes?: number;
};

// The worker is plain CommonJS (no TypeScript loader in worker threads): it opens the database and
// answers each message with one checkpoint's result, [busy, frames in the WAL, frames copied].
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
parentPort.on('message', (msg) => {
  if (msg === 'close') { db.close(); process.exit(0); }
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true, log: r.log, checkpointed: r.checkpointed });
  } catch (err) {
    parentPort.postMessage({ ok: false, error: String(err) });
  }
});
`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

export function startCheckpointer(file: string, opts: CheckpointerOptions = {}): Checkpointer {
  const everyMs = opts.everyMs ?? 1_000;
  const fromBytes = opts.fromBytes ?? 4 * 1024 * 1024;
  const stats: CheckpointStats = { runs: 0, framesCopied: 0, failures: 0 };
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  let closed = false;

  const walBytes = () => {
    try {
      return statSync(`${file}-wal`).size;
    } catch {
      return 0;
    }
  };

  function run(): Promise<void> {
    if (running) return running;
    worker ??= new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver } });
    const w = worker;
    running = new Promise<void>((resolve) => {
      const done = (answer: { ok: boolean; log?: number; checkpointed?: number }) => {
        w.off('error', failed);
        running = undefined;
        stats.runs++;
        if (answer.ok) count(answer.log ?? 0, answer.checkpointed ?? 0);
        else stats.failures++;
        resolve();
      };
      const failed = () => {
        // The worker died (it is started again at the next tick); the writer's backstop still checkpoints.
        w.off('message', done);
        running = undefined;
        stats.failures++;
        if (worker === w) worker = undefined;
        resolve();
      };
      w.once('message', done);
      w.once('error', failed);
      w.postMessage('checkpoint');
    });
    return running;
  }

  // SQLite counts the frames copied since the WAL last started over (a shorter WAL started over):
  // what is new is the growth since the previous run.
  let previous = { log: 0, checkpointed: 0 };
  function count(log: number, checkpointed: number) {
    const before = log >= previous.log ? previous.checkpointed : 0;
    stats.framesCopied += Math.max(0, checkpointed - before);
    previous = { log, checkpointed };
  }

  const timer = setInterval(() => {
    if (!closed && !running && walBytes() >= fromBytes) void run();
  }, everyMs);
  timer.unref();

  return {
    stats,
    checkpoint: () => (closed ? Promise.resolve() : run()),
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
      const w = worker;
      worker = undefined;
      if (!w) return;
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      w.postMessage('close');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2_000).unref())]);
      await w.terminate();
    },
  };
}
