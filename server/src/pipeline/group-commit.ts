// Group commit for the inbound pipeline on SQLite. SQLite has one writer and one connection here,
// so deliveries are serialised anyway; what costs is each commit (WAL frames for every page touched,
// a new full-text segment per transaction). Deliveries that arrive while a transaction runs are
// queued and run together in the next one, each inside its own savepoint: one that fails (a
// redelivery, a bad row) rolls back alone, the others commit, and every caller learns its own
// outcome only after the commit. PostgreSQL keeps one transaction per delivery (real concurrency).
import { CompiledQuery, sql, type Transaction } from 'kysely';
import type { AppDeps } from '../context.ts';
import type { DB } from '../db/schema.ts';

/** Deliveries per transaction at most: bounds how long other queries wait for the connection. */
export const MAX_GROUP = 200;

type Work<T> = (trx: Transaction<DB>) => Promise<T>;
type Job = { work: Work<unknown>; resolve: (value: unknown) => void; reject: (err: unknown) => void };
type Group = { queue: Job[]; draining: boolean };

const groups = new WeakMap<AppDeps, Group>();

// One savepoint at a time, released before the next, so one name serves. Raw statements: Kysely's
// savepoint() builds a new transaction object for each.
const SAVEPOINT = CompiledQuery.raw('savepoint delivery');
const RELEASE = CompiledQuery.raw('release delivery');
const ROLLBACK_TO = CompiledQuery.raw('rollback to delivery');

export function runGrouped<T>(deps: AppDeps, companyId: number, work: Work<T>): Promise<T> {
  if (deps.dialect !== 'sqlite') return runLocked(deps, companyId, work);
  let group = groups.get(deps);
  if (!group) groups.set(deps, (group = { queue: [], draining: false }));
  const g = group;
  return new Promise<T>((resolve, reject) => {
    g.queue.push({ work: work as Work<unknown>, resolve: resolve as (v: unknown) => void, reject });
    if (!g.draining) void drain(deps, g);
  });
}

async function drain(deps: AppDeps, group: Group): Promise<void> {
  group.draining = true;
  try {
    while (group.queue.length > 0) {
      const batch = group.queue.splice(0, MAX_GROUP);
      await runBatch(deps, batch);
    }
  } finally {
    group.draining = false;
  }
}

async function runBatch(deps: AppDeps, batch: Job[]): Promise<void> {
  const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
  let trx;
  try {
    trx = await deps.db.startTransaction().execute();
  } catch (err) {
    for (const job of batch) job.reject(err);
    return;
  }
  try {
    for (const job of batch) {
      await trx.executeQuery(SAVEPOINT);
      try {
        outcomes.push({ ok: true, value: await job.work(trx) });
        await trx.executeQuery(RELEASE);
      } catch (error) {
        await trx.executeQuery(ROLLBACK_TO);
        await trx.executeQuery(RELEASE);
        outcomes.push({ ok: false, error });
      }
    }
    await trx.commit().execute();
  } catch (err) {
    await trx.rollback().execute().catch(() => undefined);
    for (const job of batch) job.reject(err);
    return;
  }
  batch.forEach((job, i) => {
    const outcome = outcomes[i]!;
    if (outcome.ok) job.resolve(outcome.value);
    else job.reject(outcome.error);
  });
}

const RETRYABLE = new Set(['40P01', '40001']);

/**
 * PostgreSQL: every write to a synced table bumps the company's per-table sync counters by trigger,
 * row locks taken in the order the tables are touched. Two deliveries touching tables in different
 * orders (a new contact: contacts, tickets, messages; a known one: messages, tickets) would deadlock
 * on those rows. A transaction-scoped advisory lock per company makes deliveries of one company take
 * turns (the counter rows serialise them anyway); a deadlock or serialisation failure with other
 * work is retried.
 */
const INGEST_LOCK = 0x7a64; // "zd": the advisory-lock namespace of the inbound pipeline

async function runLocked<T>(deps: AppDeps, companyId: number, work: Work<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${INGEST_LOCK}, ${companyId})`.execute(trx);
        return work(trx);
      });
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (!code || !RETRYABLE.has(code) || attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 20));
    }
  }
}
