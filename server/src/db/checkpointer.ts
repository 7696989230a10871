// SQLite checkpoints off the event loop. In WAL mode every commit appends pages to the -wal file,
// and a checkpoint copies them back into the database file. Left to SQLite, the commit that passes
// `wal_autocheckpoint` copies them on the writer's thread, which is the server's event loop: 50–80 ms
// during which no request, send or timer runs, every second or so under a campaign.
//
// Here a worker thread with a connection of its own copies the pages (PASSIVE checkpoints, which
// never block the writer or readers) five times a second while the WAL holds a few megabytes: a
// campaign appends 30–40 MB of WAL a second, so looking once a second let the WAL reach SQLite's
// own threshold between two looks, and its checkpoint stalled the event loop anyway. Under a
// steady stream of writes such a checkpoint never quite reaches the WAL's end, and a WAL starts over
// only once copied to its end; so when it has grown past `restartFrames`, the next checkpoint runs
// while holding the writer's turn (`lockWriter`: writes wait, reads and the event loop go on). It
// has little left to copy, reaches the end, and the next write starts the WAL over. SQLite's own
// autocheckpoint stays as the backstop, should this thread fall behind.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export type CheckpointStats = { runs: number; framesCopied: number; failures: number; /** Checkpoints run holding the writer's turn. */ closing: number };

export type Checkpointer = {
  readonly stats: CheckpointStats;
  /** Checkpoints now (tests); resolves when done. */
  checkpoint(): Promise<void>;
  close(): Promise<void>;
};

export type CheckpointerOptions = {
  /** How often the WAL's size is looked at. */
  everyMs?: number;
  /** The worker starts, and checkpoints run, once the WAL file is this large. */
  fromBytes?: number;
  /** Past this many frames in the WAL, a checkpoint holds the writer's turn to reach its end. */
  restartFrames?: number;
  /** Runs `fn` while no write is under way or can start (the writer's mutex). */
  lockWriter?: <T>(fn: () => Promise<T>) => Promise<T>;
};

// The worker is plain CommonJS (no TypeScript loader in worker threads): it opens the database and
// answers each message with its checkpoint's result: frames in the WAL, frames copied.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
parentPort.on('message', (msg) => {
  if (msg === 'close') { db.close(); process.exit(0); }
  try {
    // Frames appended during a pass are copied by the next, shorter one: a WAL copied to its end
    // starts over at the next write, and SQLite's own checkpoint (on the writer's thread) rarely comes.
    let r;
    for (let pass = 0; pass < 4; pass++) {
      [r] = db.pragma('wal_checkpoint(PASSIVE)');
      if (r.busy || r.checkpointed >= r.log) break;
    }
    parentPort.postMessage({ ok: true, log: r.log, checkpointed: r.checkpointed });
  } catch (err) {
    parentPort.postMessage({ ok: false, error: String(err) });
  }
});
`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

export function startCheckpointer(file: string, opts: CheckpointerOptions = {}): Checkpointer {
  const everyMs = opts.everyMs ?? 200;
  const fromBytes = opts.fromBytes ?? 4 * 1024 * 1024;
  const restartFrames = opts.restartFrames ?? 4_000;
  const stats: CheckpointStats = { runs: 0, framesCopied: 0, failures: 0, closing: 0 };
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

  /** One checkpoint on the worker; answers the frames in the WAL and copied (undefined: it failed). */
  function run(): Promise<{ log: number; checkpointed: number } | undefined> {
    worker ??= new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver } });
    const w = worker;
    return new Promise((resolve) => {
      const settle = (result: { log: number; checkpointed: number } | undefined) => {
        w.off('message', done);
        w.off('error', failed);
        w.off('exit', failed);
        stats.runs++;
        if (result) count(result.log, result.checkpointed);
        else stats.failures++;
        resolve(result);
      };
      const done = (answer: { ok: boolean; log?: number; checkpointed?: number }) => settle(answer.ok ? { log: answer.log ?? 0, checkpointed: answer.checkpointed ?? 0 } : undefined);
      // The worker died (started again next time; the writer's backstop still checkpoints). Never
      // left waiting: a checkpoint may be holding the writer's turn.
      const failed = () => {
        if (worker === w) worker = undefined;
        settle(undefined);
      };
      w.once('message', done);
      w.once('error', failed);
      w.once('exit', failed);
      w.postMessage('checkpoint');
    });
  }

  /** A checkpoint, then (the WAL past restartFrames) one holding the writer's turn; one at a time. */
  function checkpoint(): Promise<void> {
    running ??= (async () => {
      try {
        const result = await run();
        if (!closed && result && result.log >= restartFrames && opts.lockWriter) {
          await opts.lockWriter(async () => {
            stats.closing++;
            await run();
          });
        }
      } finally {
        running = undefined;
      }
    })();
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
    if (!closed && !running && walBytes() >= fromBytes) void checkpoint();
  }, everyMs);
  timer.unref();

  return {
    stats,
    checkpoint: () => (closed ? Promise.resolve() : checkpoint()),
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
