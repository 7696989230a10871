// The read worker's thread (README.md): a read-only handle on the database, a sync service of its
// own (its caches included) whose writes go to the starting thread's writer, and the reads of
// tasks.ts answered as messages come.
import { parentPort, workerData } from 'node:worker_threads';
import { openReadOnlyDatabase } from '../db/database.ts';
import type { Logger } from '../log.ts';
import { createSyncService } from '../sync/service.ts';
import { fromErrorMessage, toErrorMessage, type FromWorker, type ToWorker, type WriteOp, type WriterCalls } from './protocol.ts';
import { runReadTask, type ReadDeps } from './tasks.ts';

export type ReadWorkerData = { entry: string; databaseUrl: string; jwtSecret: string };

const port = parentPort!;
const { databaseUrl, jwtSecret } = workerData as ReadWorkerData;
const post = (m: FromWorker) => port.postMessage(m);

const log: Logger = {
  info: (msg, data) => post({ type: 'log', level: 'info', msg, data }),
  warn: (msg, data) => post({ type: 'log', level: 'warn', msg, data }),
  error: (msg, data) => post({ type: 'log', level: 'error', msg, data }),
};

// Writes are the writer's: each a message answered once done (committed).
const writes = new Map<number, { resolve(value: unknown): void; reject(err: unknown): void }>();
let nextWrite = 0;
const send =
  <Op extends WriteOp>(op: Op) =>
  (...args: Parameters<WriterCalls[Op]>) =>
    new Promise((resolve, reject) => {
      const id = ++nextWrite;
      writes.set(id, { resolve, reject });
      post({ type: 'write', id, op, args });
    }) as ReturnType<WriterCalls[Op]>;
const writer: WriterCalls = {
  insertGroup: send('insertGroup'),
  saveCvr: send('saveCvr'),
  reserveVersions: send('reserveVersions'),
  advanceWatermark: send('advanceWatermark'),
  collectGarbage: send('collectGarbage'),
  indexQueuedMessages: send('indexQueuedMessages'),
};

const { db, dialect } = openReadOnlyDatabase(databaseUrl);
// A pull answers without waiting for the main thread to store its CVR (store.ts answerBeforeSaved).
const deps: ReadDeps = { db, dialect, sync: createSyncService({ db, dialect, log, jwtSecret, writer, answerBeforeSaved: true }), indexQueued: writer.indexQueuedMessages };

port.on('message', (m: ToWorker) => {
  if (m.type === 'written') {
    const waiting = writes.get(m.id);
    writes.delete(m.id);
    if (m.ok) waiting?.resolve(m.value);
    else waiting?.reject(fromErrorMessage(m.error, 'the writer'));
    return;
  }
  runReadTask(deps, m.name, m.args as never).then(
    (answer) => post({ type: 'answer', id: m.id, ok: true, answer }),
    (err: unknown) => post({ type: 'answer', id: m.id, ok: false, error: toErrorMessage(err) }),
  );
});
post({ type: 'ready' });
