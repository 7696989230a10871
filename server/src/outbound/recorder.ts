// The dispatcher's outcomes are written in batches: the sends that finish while one batch commits
// are recorded together in the next one, one transaction (and one commit, one poke per company)
// for many rows instead of one each. If a batch fails, each of its outcomes is written alone, so
// one bad row cannot lose the others' outcomes.
import type { AppDeps } from '../context.ts';
import { write, type Tx } from '../db/write.ts';

/** Outcomes per transaction at most: bounds how long others wait for the connection on SQLite. */
const MAX_BATCH = 100;

type Job = { run: (tx: Tx) => Promise<void>; resolve: () => void; reject: (err: unknown) => void };

export type Recorder = (run: (tx: Tx) => Promise<void>) => Promise<void>;

export function createRecorder(deps: AppDeps): Recorder {
  const pending: Job[] = [];
  let flushing = false;

  async function flush() {
    try {
      while (pending.length > 0) {
        const batch = pending.splice(0, MAX_BATCH);
        try {
          await write(deps, async (tx) => {
            for (const job of batch) await job.run(tx);
          });
          for (const job of batch) job.resolve();
        } catch {
          for (const job of batch) await write(deps, job.run).then(job.resolve, job.reject);
        }
      }
    } finally {
      flushing = false;
    }
  }

  return (run) =>
    new Promise<void>((resolve, reject) => {
      pending.push({ run, resolve, reject });
      if (flushing) return;
      flushing = true;
      // Outcomes of sends finishing in the same turn of the event loop join the first batch.
      setImmediate(() => void flush());
    });
}
