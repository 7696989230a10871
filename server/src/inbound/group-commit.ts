// Group commit for the inbound pipeline. Deliveries that arrive in the same turn of the event loop,
// or while a transaction runs, are stored together in one transaction by one call of the store
// function, which answers an outcome per delivery (a redelivery is an outcome, not a failure). If
// that call throws (a bad row, a conflict the store could not foresee), the batch is rolled back and
// run again one delivery at a time, each in its own savepoint, so the failure stays with its
// delivery. Every caller learns its outcome only after the commit.
// - SQLite has one writer and one connection here, so deliveries are serialised anyway; what costs
//   is each commit (WAL frames for every page touched) and each statement (a full-text segment per
//   insert, store.ts). One queue for the whole app.
// - PostgreSQL: one queue per company on each instance: a transaction per delivery paid a dozen
//   round trips and a commit each. Companies run side by side on the pool's connections, and so do
//   a company's batches on several instances (their connections differ): the sync counters they
//   bump are locked only at commit, in one order (migration 20261129T150000), so batches no longer
//   take turns for their writes. A deadlock or serialisation failure with other work (two batches
//   updating the same tickets in another order) is retried.
import { CompiledQuery, type ControlledTransaction } from 'kysely';
import type { AppDeps } from '../context.ts';
import type { DB } from '../db/schema.ts';
import { runCompiled, trackTransaction } from '../db/database.ts';
import { collectEffects, txOf, type EffectLog, type Tx } from '../db/write.ts';

/** Deliveries per transaction at most: bounds how long other queries wait for the connection. */
export const MAX_GROUP = 200;

/**
 * Stores items in the given transaction, one outcome per item in order; throws to fail them all.
 * Its effects (pokes) run after the commit, only for the items kept (db/write.ts).
 */
export type Store<I, O> = (tx: Tx, items: I[]) => Promise<O[]>;

type Job<I, O> = { item: I; resolve: (value: O) => void; reject: (err: unknown) => void };
/** A queue of deliveries: one per company on PostgreSQL, one for the app on SQLite. */
type Group<I, O> = { queue: Job<I, O>[]; draining: boolean };

// Per app, store function and company (PostgreSQL), never shared between apps or tests.
const groups = new WeakMap<AppDeps, Map<Store<never, unknown>, Map<number, Group<never, unknown>>>>();

// One savepoint at a time, released before the next, so one name serves. Raw statements: Kysely's
// savepoint() builds a new transaction object for each.
const SAVEPOINT = CompiledQuery.raw('savepoint delivery');
const RELEASE = CompiledQuery.raw('release delivery');
const ROLLBACK_TO = CompiledQuery.raw('rollback to delivery');

export function runGrouped<I, O>(deps: AppDeps, companyId: number, item: I, store: Store<I, O>): Promise<O> {
  const key = deps.dialect === 'postgres' ? companyId : 0;
  let byStore = groups.get(deps);
  if (!byStore) groups.set(deps, (byStore = new Map()));
  let byCompany = byStore.get(store as Store<never, unknown>);
  if (!byCompany) byStore.set(store as Store<never, unknown>, (byCompany = new Map()));
  let group = byCompany.get(key) as Group<I, O> | undefined;
  if (!group) byCompany.set(key, (group = { queue: [], draining: false }) as Group<never, unknown>);
  const g = group;
  return new Promise<O>((resolve, reject) => {
    g.queue.push({ item, resolve, reject });
    if (!g.draining) void drain(deps, g, store);
  });
}

function one<O>(outcomes: O[]): O {
  if (outcomes.length !== 1) throw new Error(`store answered ${outcomes.length} outcomes for one item`);
  return outcomes[0]!;
}

async function drain<I, O>(deps: AppDeps, group: Group<I, O>, store: Store<I, O>): Promise<void> {
  group.draining = true;
  try {
    // The deliveries of this turn of the event loop join the first batch: each reaches the queue
    // after a few awaits of its own (the channel's event, the lock per contact), so starting at the
    // first left the others to a commit of their own. With four deliveries in flight at a time,
    // SQLite's ingest went from 2 to 4 per commit and 0.37 to 0.26 ms of CPU per message
    // (`BENCH_IN_FLIGHT=4 npm run -s bench ingest`). Later batches take what queued while the one
    // before ran.
    await new Promise((resolve) => setImmediate(resolve));
    while (group.queue.length > 0) {
      const batch = group.queue.splice(0, MAX_GROUP);
      const stored = await runBatch(deps, batch, store);
      if (!stored) await runOneByOne(deps, batch, store);
    }
  } finally {
    group.draining = false;
  }
}

const RETRYABLE = new Set(['40P01', '40001']);
const isRetryable = (err: unknown) => RETRYABLE.has((err as { code?: string }).code ?? '');
const ATTEMPTS = 5;
const backOff = (attempt: number) => new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 20));

/** A transaction for a batch. */
async function begin(deps: AppDeps): Promise<ControlledTransaction<DB>> {
  const trx = await deps.db.startTransaction().execute();
  trackTransaction(deps.db, trx);
  return trx;
}

/**
 * The whole batch in one call and one transaction; false (rolled back) when the call failed. A
 * deadlock on PostgreSQL is tried again, the whole batch.
 */
async function runBatch<I, O>(deps: AppDeps, batch: Job<I, O>[], store: Store<I, O>): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    let trx;
    try {
      trx = await begin(deps);
    } catch (err) {
      if (isRetryable(err) && attempt < ATTEMPTS) {
        await backOff(attempt);
        continue;
      }
      for (const job of batch) job.reject(err);
      return true;
    }
    let outcomes: O[];
    const log = collectEffects();
    try {
      outcomes = await store(txOf(deps, trx, log.effects), batch.map((job) => job.item));
      if (outcomes.length !== batch.length) throw new Error(`store answered ${outcomes.length} outcomes for ${batch.length} items`);
      await trx.commit().execute();
    } catch (err) {
      await trx.rollback().execute().catch(() => undefined);
      await log.rollback(deps.log);
      if (isRetryable(err) && attempt < ATTEMPTS) {
        await backOff(attempt);
        continue;
      }
      if (batch.length > 1) return false;
      batch[0]!.reject(err);
      return true;
    }
    log.commit(deps);
    batch.forEach((job, i) => job.resolve(outcomes[i]!));
    return true;
  }
}

/** Each delivery in its own savepoint of one transaction: a failure rolls back alone and is its caller's (a deadlock is tried again). */
async function runOneByOne<I, O>(deps: AppDeps, batch: Job<I, O>[], store: Store<I, O>): Promise<void> {
  const outcomes: ({ ok: true; value: O } | { ok: false; error: unknown })[] = [];
  const kept: EffectLog[] = [];
  let trx;
  try {
    trx = await begin(deps);
  } catch (err) {
    for (const job of batch) job.reject(err);
    return;
  }
  try {
    for (const job of batch) {
      for (let attempt = 1; ; attempt++) {
        const log = collectEffects();
        await runCompiled(trx, SAVEPOINT);
        try {
          outcomes.push({ ok: true, value: one(await store(txOf(deps, trx, log.effects), [job.item])) });
          await runCompiled(trx, RELEASE);
          kept.push(log);
          break;
        } catch (error) {
          await runCompiled(trx, ROLLBACK_TO);
          await runCompiled(trx, RELEASE);
          await log.rollback(deps.log);
          // PostgreSQL: a deadlock with other work cancelled only this delivery's statement; the
          // savepoint is undone and the delivery tried again, as runBatch tries a whole batch again.
          if (isRetryable(error) && attempt < ATTEMPTS) {
            await backOff(attempt);
            continue;
          }
          outcomes.push({ ok: false, error });
          break;
        }
      }
    }
    await trx.commit().execute();
  } catch (err) {
    await trx.rollback().execute().catch(() => undefined);
    for (const log of kept) await log.rollback(deps.log);
    for (const job of batch) job.reject(err);
    return;
  }
  for (const log of kept) log.commit(deps);
  batch.forEach((job, i) => {
    const outcome = outcomes[i]!;
    if (outcome.ok) job.resolve(outcome.value);
    else job.reject(outcome.error);
  });
}
