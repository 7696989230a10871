// Where reads run (README.md): on a worker thread with a read-only handle of its own, or on this
// thread. The worker's writes (a pull's CVR) come back here, to the database's writer.
import { Worker } from 'node:worker_threads';
import type { AppDeps } from '../context.ts';
import { indexQueuedMessages } from '../db/message-index.ts';
import { createCvrWriter } from '../sync/cvr-writer.ts';
import { syncServiceOf } from '../sync/service.ts';
import { fromErrorMessage, toErrorMessage, type FromWorker, type ToWorker, type WriterCalls } from './protocol.ts';
import { runReadTask, type ReadAnswer, type ReadArgs, type ReadDeps, type ReadTaskName } from './tasks.ts';
import type { ReadWorkerData } from './worker.ts';

export type Reads = {
  /** Runs a read of tasks.ts; rejects with its AppError as thrown. */
  run<K extends ReadTaskName>(name: K, args: ReadArgs<K>): Promise<ReadAnswer>;
  /** Whether a worker thread answers now (false: this thread does, as while the worker starts). */
  readonly threaded: boolean;
  close(): Promise<void>;
};

/** Reads on a worker thread: the thread (while it runs) and how many reads it answered. */
export type ReadWorker = Reads & { readonly thread: Worker | undefined; readonly answered: number };

type HostDeps = Pick<AppDeps, 'db' | 'dialect' | 'log' | 'config'>;

/** The read worker when the config asks for one and the database is a file or a server; else reads on this thread. */
export function startReads(deps: HostDeps): Reads {
  const inMemory = deps.dialect === 'sqlite' && /^(sqlite:(\/\/)?)?(:memory:)?$/.test(deps.config.databaseUrl);
  return deps.config.readWorker && !inMemory ? startReadWorker(deps) : localReads(deps);
}

/** Reads on this thread, on the app's own handle. */
export function localReads(deps: HostDeps): Reads {
  const readDeps: ReadDeps = { db: deps.db, dialect: deps.dialect, sync: syncServiceOf(deps), indexQueued: () => indexQueuedMessages(deps.db, deps.dialect) };
  return {
    run: (name, args) => runReadTask(readDeps, name, args),
    threaded: false,
    close: async () => undefined,
  };
}

/** A worker that dies is started again after this long, doubled at each death in a row up to a minute. */
const RESTART_MS = 500;
const RESTART_MAX_MS = 60_000;

/**
 * Reads on a worker thread. Until it says it is ready, and while it is started again after dying,
 * reads run on this thread; the reads it had not answered when it died run here too (a read may
 * run twice: a pull's second run stores one more CVR, which no cookie names for long).
 */
export function startReadWorker(deps: HostDeps): ReadWorker {
  const local = localReads(deps);
  const writer: WriterCalls = { ...createCvrWriter(deps.db, deps.dialect), indexQueuedMessages: () => indexQueuedMessages(deps.db, deps.dialect) };
  const pending = new Map<number, { name: ReadTaskName; args: unknown; resolve(a: ReadAnswer): void; reject(err: unknown): void }>();
  let worker: Worker | undefined;
  let ready = false;
  let closed = false;
  let nextId = 0;
  let restartMs = RESTART_MS;
  let answered = 0;

  function spawn() {
    const data: ReadWorkerData = { entry: new URL('./worker.ts', import.meta.url).href, databaseUrl: deps.config.databaseUrl, jwtSecret: deps.config.jwtSecret };
    const w = new Worker(new URL('./boot.mjs', import.meta.url), { workerData: data });
    worker = w;
    const post = (m: ToWorker) => w.postMessage(m);
    w.on('message', (m: FromWorker) => {
      switch (m.type) {
        case 'ready':
          ready = true;
          restartMs = RESTART_MS;
          return;
        case 'answer': {
          const task = pending.get(m.id);
          pending.delete(m.id);
          answered++;
          if (m.ok) task?.resolve(m.answer);
          else task?.reject(fromErrorMessage(m.error, 'read worker'));
          return;
        }
        case 'write':
          (writer[m.op] as (...args: unknown[]) => Promise<unknown>)(...m.args).then(
            (value) => post({ type: 'written', id: m.id, ok: true, value }),
            (err: unknown) => post({ type: 'written', id: m.id, ok: false, error: toErrorMessage(err) }),
          );
          return;
        case 'log':
          deps.log[m.level](m.msg, m.data);
          return;
      }
    });
    w.on('error', (err) => deps.log.error('read worker failed', { error: err.stack ?? String(err) }));
    w.on('exit', (code) => {
      if (worker !== w) return;
      worker = undefined;
      ready = false;
      // What it had not answered is read here.
      for (const [id, task] of pending) {
        pending.delete(id);
        local.run(task.name, task.args as never).then(task.resolve, task.reject);
      }
      if (closed) return;
      deps.log.error('read worker stopped; reads run on the main thread until it is back', { code, restartInMs: restartMs });
      setTimeout(() => closed || spawn(), restartMs).unref();
      restartMs = Math.min(restartMs * 2, RESTART_MAX_MS);
    });
  }
  spawn();

  return {
    run(name, args) {
      const w = worker;
      if (!ready || !w) return local.run(name, args);
      return new Promise((resolve, reject) => {
        const id = ++nextId;
        pending.set(id, { name, args, resolve, reject });
        w.postMessage({ type: 'task', id, name, args } satisfies ToWorker);
      });
    },
    get threaded() {
      return ready;
    },
    get thread() {
      return worker;
    },
    get answered() {
      return answered;
    },
    async close() {
      closed = true;
      const w = worker;
      worker = undefined;
      ready = false;
      if (w) await w.terminate();
      // Anything still asked of it is read here, as after a death.
      for (const [id, task] of pending) {
        pending.delete(id);
        local.run(task.name, task.args as never).then(task.resolve, task.reject);
      }
    },
  };
}

