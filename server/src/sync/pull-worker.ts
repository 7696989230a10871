// The pull thread's side (pull-thread.ts has the main thread's): answers pulls on a read-only
// handle of its own, with a sync store whose caches live here, and sends each write a pull makes
// (a CVR, a newer watermark, a client group, the listings' collection) to the main thread, which
// owns the database's writer. Started by pull-thread.ts; never imported by anything else.
import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '@zapdesk/sync';
import { openReadOnlyDatabase } from '../db/database.ts';
import type { CvrRow, CvrWriter } from './cvr-writer.ts';
import { pullForSession } from './pull.ts';
import { createSyncStore } from './store.ts';
import { errorFromWire, errorToWire, type FromPullThread, type PullThreadData, type ToPullThread, type WireError, type WriteOp } from './pull-wire.ts';

const port = parentPort!;
const { databaseUrl } = workerData as PullThreadData;
const { db, dialect } = openReadOnlyDatabase(databaseUrl);
const post = (m: FromPullThread) => port.postMessage(m);

// Writes wait here for the main thread's answer.
const writes = new Map<number, { resolve(value: unknown): void; reject(err: unknown): void }>();
let nextWrite = 1;
function remote<T>(op: WriteOp, args: unknown[]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const id = nextWrite++;
    writes.set(id, { resolve: resolve as (value: unknown) => void, reject });
    post({ kind: 'write', id, op, args });
  });
}

// The CVRs saved in one turn of this thread's event loop (the pulls of a poke) go over together, and
// are written at once there, in one commit (cvr-writer.ts saveCvrBatch).
let saves: { row: CvrRow; resolve(version: number): void; reject(err: unknown): void }[] = [];
function sendSaves() {
  const batch = saves;
  saves = [];
  remote<({ ok: true; version: number } | { ok: false; error: WireError })[]>('saveCvrBatch', [batch.map((s) => s.row)]).then(
    (outcomes) => outcomes.forEach((o, i) => (o.ok ? batch[i]!.resolve(o.version) : batch[i]!.reject(errorFromWire(o.error)))),
    (err: unknown) => batch.forEach((s) => s.reject(err)),
  );
}

const writer: CvrWriter = {
  saveCvr: (row) =>
    new Promise<number>((resolve, reject) => {
      if (saves.length === 0) setImmediate(sendSaves);
      saves.push({ row, resolve, reject });
    }),
  saveCvrBatch: (rows) => remote('saveCvrBatch', [rows]),
  advanceWatermark: (companyId, groupId, version, watermark) => remote('advanceWatermark', [companyId, groupId, version, watermark]),
  collectGarbage: (companyId, graceMs) => remote('collectGarbage', [companyId, graceMs]),
  claimGroup: (owner, id) => remote('claimGroup', [owner, id]),
};
const log = { warn: (msg: string, data?: Record<string, unknown>) => post({ kind: 'log', level: 'warn', msg, data }) };
const store = createSyncStore(db, dialect, { writer, log });

async function answer(id: number, m: Extract<ToPullThread, { kind: 'pull' }>) {
  try {
    const { response } = await pullForSession({ db, dialect }, store, m.session, m.request);
    post({ kind: 'pulled', id, ok: true, text: JSON.stringify(response), cookie: response.cookie });
  } catch (err) {
    post({ kind: 'pulled', id, ok: false, error: errorToWire(err) });
  }
}

port.on('message', (m: ToPullThread) => {
  if (m.kind === 'pull') void answer(m.id, m);
  else if (m.kind === 'wrote') {
    const waiting = writes.get(m.id);
    writes.delete(m.id);
    if (m.ok) waiting?.resolve(m.value);
    else waiting?.reject(errorFromWire(m.error));
  } else if (m.kind === 'stop') {
    for (const w of writes.values()) w.reject(new AppError('ERR_INTERNAL_SERVER_ERROR', 'The server is stopping.'));
    void db.destroy().finally(() => port.close());
  }
});

// A first statement, so the first pull does not also pay for opening the file.
await db.selectFrom('companies').select('companies.id').limit(1).execute();
post({ kind: 'ready' });
