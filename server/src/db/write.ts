// One write path (DESIGN §12). A write has one owner: the REST route or one push mutation calls
// `write(deps, (tx) => …)`, which opens the transaction; services receive `tx` and never open one,
// never poke and never touch the network. What must happen after the commit (pokes, waking the
// outbox dispatcher, removing a file) is registered on `tx.effects` while the write runs and runs
// only once the real commit is done; a rolled-back write has no effects (only its `onRollback`s).
// On SQLite, writes arriving together share a transaction, each in a savepoint (group commit).
import { CompiledQuery, type Transaction } from 'kysely';
import type { Config } from '../config.ts';
import type { AppDeps } from '../context.ts';
import type { Logger } from '../log.ts';
import { firstWaiting, onFirstWaiting, runCompiled, soleWriter, trackTransaction, type Database, type Dialect } from './database.ts';
import type { DB } from './schema.ts';

/** What a read needs: `AppDeps` is one, and so is a `Tx` (reads inside a write see its rows). */
export type Reader = { db: Database; dialect: Dialect; config: Config; log: Logger };

/** A write in progress: the transaction and the effects to run after its commit. */
export type Tx = Reader & { db: Transaction<DB>; effects: Effects };

export type Effects = {
  /** The company's users (only `userIds` when given) pull after the commit. */
  poke(companyId: number, userIds?: number[]): void;
  /** Every company's users pull (platform-wide rows: announcements, plans). */
  pokeAll(): void;
  /** New outbox rows on this connection: its dispatcher looks once the rows are committed. */
  dispatch(connectionId: number): void;
  /**
   * Anything else that must wait for the commit (removing a file the write dropped, a read receipt,
   * ending a deleted connection's session); `fn` gets the app's realtime, outbox and sessions.
   */
  afterCommit(fn: (app: EffectSinks) => unknown): void;
  /** Undo what the write did outside the database (a file it saved) if it rolls back. */
  onRollback(fn: () => unknown): void;
};

/**
 * What runs effects after a commit: the app's realtime hub, outbox and sessions, and its database
 * for work that goes on in writes of its own (db/slices.ts). All a write needs (`write` takes it).
 */
export type EffectSinks = Pick<AppDeps, 'db' | 'dialect' | 'realtime' | 'outbox' | 'sessions' | 'assistants' | 'webhooks' | 'config' | 'log'>;

/** Effects gathered for one transaction; `commit` or `rollback` runs them, once. */
export type EffectLog = {
  effects: Effects;
  commit(sinks: EffectSinks): void;
  rollback(log: Logger): Promise<void>;
  /** Hands every effect over to an enclosing write's (a savepoint that was released into it). */
  forward(into: Effects): void;
};

export function collectEffects(): EffectLog {
  // company → users to poke (null: all of them)
  const pokes = new Map<number, Set<number> | null>();
  let everyone = false;
  const connections = new Set<number>();
  const after: ((app: EffectSinks) => unknown)[] = [];
  const undo: (() => unknown)[] = [];
  let done = false;

  const effects: Effects = {
    poke(companyId, userIds) {
      const current = pokes.get(companyId);
      if (current === null) return;
      if (!userIds) pokes.set(companyId, null);
      else pokes.set(companyId, new Set([...(current ?? []), ...userIds]));
    },
    pokeAll: () => void (everyone = true),
    dispatch: (connectionId) => void connections.add(connectionId),
    afterCommit: (fn) => void after.push(fn),
    onRollback: (fn) => void undo.push(fn),
  };

  const guard = (what: string, log: Logger, fn: () => unknown) => {
    try {
      const result = fn();
      if (result instanceof Promise) result.catch((err: unknown) => log.warn(`${what} failed after commit`, { error: String(err) }));
    } catch (err) {
      // The write committed; a lost poke only delays clients until their next pull.
      log.warn(`${what} failed after commit`, { error: String(err) });
    }
  };

  return {
    effects,
    commit(app) {
      const { realtime, outbox, log } = app;
      if (done) return;
      done = true;
      if (everyone) guard('poke', log, () => realtime.pokeAll());
      else for (const [companyId, users] of pokes) guard('poke', log, () => (users ? realtime.pokeUsers(companyId, [...users]) : realtime.pokeCompany(companyId)));
      for (const id of connections) guard('dispatch', log, () => outbox.wake(id));
      for (const fn of after) guard('after-commit effect', log, () => fn(app));
    },
    forward(into) {
      if (done) return;
      done = true;
      if (everyone) into.pokeAll();
      for (const [companyId, users] of pokes) into.poke(companyId, users ? [...users] : undefined);
      for (const id of connections) into.dispatch(id);
      for (const fn of after) into.afterCommit(fn);
      for (const fn of undo) into.onRollback(fn);
    },
    async rollback(log) {
      if (done) return;
      done = true;
      for (const fn of undo) {
        try {
          await fn();
        } catch (err) {
          log.warn('rollback effect failed', { error: String(err) });
        }
      }
    },
  };
}

export type WriteOptions = {
  /**
   * Goes before the writes already waiting (SQLite's group commit): for short bookkeeping that
   * others wait on, as the outbox recording a send (its lane holds a slot until then), which must
   * not queue behind a backlog of pushed mutations.
   */
  first?: boolean;
  /**
   * A customer waits on this write (the inbound chain's bot or flow reply): on SQLite, when no group
   * is running, its transaction starts in this turn of the event loop (a microtask) instead of after
   * the turn's timers and sockets; writes started meanwhile still join it. Its place in the queue is
   * unchanged. `first` implies it. Not for writes of requests: they are started together by the
   * sockets read in one turn, and one transaction for all of them is what keeps pushes cheap.
   */
  soon?: boolean;
};

/**
 * Runs `fn` in one transaction; its effects run after the commit. On SQLite, writes that arrive while
 * another runs share its transaction (group commit, below); each still stands alone: its own
 * savepoint, its own error, its own effects.
 */
export async function write<T>(deps: EffectSinks, fn: (tx: Tx) => Promise<T>, opts: WriteOptions = {}): Promise<T> {
  if (deps.dialect === 'sqlite') return writeGrouped(deps, fn, opts.first === true, opts.soon === true || opts.first === true);
  const log = collectEffects();
  let result: T;
  const started = performance.now();
  try {
    result = await deps.db.transaction().execute((trx) => fn(txOf(deps, trx, log.effects)));
  } catch (err) {
    await log.rollback(deps.log);
    throw err;
  } finally {
    addWriteTime(deps.db, performance.now() - started);
  }
  log.commit(deps);
  return result;
}

// Milliseconds spent writing through `write`, per database handle: on SQLite the time write groups
// held the thread, on PostgreSQL the time transactions took (several at once count each).
const writeTimes = new WeakMap<object, number>();
const addWriteTime = (db: object, ms: number) => writeTimes.set(db, (writeTimes.get(db) ?? 0) + ms);

/** The milliseconds spent writing so far (see above): sampled, how much of the time writes take (sync/pull-thread.ts). */
export function writeTime(db: Database): number {
  return writeTimes.get(db) ?? 0;
}

const ATTEMPT = CompiledQuery.raw('savepoint write_attempt');
const ATTEMPT_RELEASE = CompiledQuery.raw('release write_attempt');
const ATTEMPT_ROLLBACK = CompiledQuery.raw('rollback to write_attempt');

/**
 * Runs `fn` inside the write in a savepoint: if it throws, what it wrote and the effects it
 * registered are undone (its `onRollback`s run) and the error is returned, while the write goes on
 * (a push records a refused mutation as processed in the same write). Not nested.
 */
export async function attempt(tx: Tx, fn: (tx: Tx) => Promise<unknown>): Promise<{ ok: true } | { ok: false; error: unknown }> {
  const log = collectEffects();
  await runCompiled(tx.db, ATTEMPT);
  try {
    await fn({ ...tx, effects: log.effects });
  } catch (error) {
    await runCompiled(tx.db, ATTEMPT_ROLLBACK);
    await runCompiled(tx.db, ATTEMPT_RELEASE);
    await log.rollback(tx.log);
    return { ok: false, error };
  }
  await runCompiled(tx.db, ATTEMPT_RELEASE);
  log.forward(tx.effects);
  return { ok: true };
}

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

const STOPPED = Symbol('stopped');

/**
 * Writes that must apply in order, each its own write (a push's mutations), yielded as they settle
 * until one of them `stopsAfter` says so; the later ones then do nothing. On SQLite they are queued
 * together, so they run one after the other in one group commit rather than a group each (and the
 * stop is seen by the queued ones as they come up); elsewhere each starts when the previous ended.
 */
export async function* writeInOrder<T>(deps: AppDeps, fns: ((tx: Tx) => Promise<T>)[], stopsAfter: (outcome: Settled<T>) => boolean): AsyncGenerator<Settled<T>> {
  let stopped = false;
  const job = (fn: (tx: Tx) => Promise<T>) => async (tx: Tx): Promise<T> => {
    if (stopped) throw STOPPED;
    let outcome: Settled<T>;
    try {
      outcome = { ok: true, value: await fn(tx) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    if (stopsAfter(outcome)) stopped = true;
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  };
  const run = (fn: (tx: Tx) => Promise<T>): Promise<Settled<T>> =>
    write(deps, job(fn)).then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));
  // SQLite: all queued at once (a write that is never awaited must not reject unheard: run() never rejects).
  const queued = deps.dialect === 'sqlite' ? fns.map(run) : undefined;
  try {
    for (let i = 0; i < fns.length; i++) {
      const outcome = await (queued ? queued[i]! : run(fns[i]!));
      if (!outcome.ok && outcome.error === STOPPED) return;
      yield outcome;
      // This one stops the series (the flag may be set already by a later one that ran meanwhile).
      if (stopsAfter(outcome)) return;
    }
  } finally {
    // The caller stopped early: what is still queued does nothing.
    stopped = true;
  }
}

// ── Group commit (SQLite) ─────────────────────────────────────────────────────────────────────
// SQLite has one writer and here one connection: writes run one after the other anyway, and each
// commit costs more than most writes (the WAL frames of every page touched, and the full-text
// indexes flushing their pending terms as a new segment). Writes that arrive while a transaction
// runs join it (it lets the event loop run every SLICE_MS) or run in the next one together, each in
// a savepoint: a write that fails is rolled back to its savepoint and fails alone; the others
// commit, and every caller hears its outcome, and its effects run, only after the real commit.

/** Writes per transaction at most: bounds how long one waits for its commit, and reads for the connection. */
const MAX_GROUP = 50;
/**
 * A transaction takes no more writes once it held the thread this long. SQLite runs on this
 * thread: while a group runs, no timer fires and no socket is read (the outbox's sends finishing, a
 * pull), so a backlog of writes is cut into groups of about this length, each letting the event
 * loop run every SLICE_MS, with a turn of the event loop between groups.
 */
const GROUP_BUDGET_MS = 8;
/**
 * A group lets the event loop run between its writes (and a long write at its `breathe` points)
 * once it held the thread this long: requests are read and answered meanwhile (their reads go to
 * the reader connection and see the last commit; their writes join this group).
 */
const SLICE_MS = 4;

/** How long a group has held the thread: since it last let go, and before; whether it may let go (soleWriter). */
type Clock = { slice: number; worked: number; mayLetGo: boolean };
const clocks = new WeakMap<object, Clock>();

/**
 * Lets the event loop run if the group held the thread for SLICE_MS; answers whether it did. Between
 * two writes of a group (`db`), a statement asking to go first meanwhile (an outbox lane's claim:
 * the lane's slot is idle until it runs) takes the group back at once, to commit and hand it the
 * writer, rather than after the rest of the event loop's turn.
 */
async function letGo(clock: Clock, db?: Database): Promise<boolean> {
  const now = performance.now();
  if (!clock.mayLetGo || now - clock.slice < SLICE_MS) return false;
  clock.worked += now - clock.slice;
  await new Promise<void>((resolve) => {
    const back = () => {
      clearImmediate(turn);
      stop();
      resolve();
    };
    const turn = setImmediate(back);
    const stop = db ? onFirstWaiting(db, back) : () => undefined;
  });
  clock.slice = performance.now();
  return true;
}

/**
 * A point in a long write (a campaign's batch) where the thread may be let go, as between the
 * writes of a group: on SQLite, when the group has held it for a while (and its handle is the
 * file's only one here: soleWriter). The transaction stays open.
 */
export async function breathe(tx: Tx): Promise<void> {
  const clock = clocks.get(tx.db);
  if (clock) await letGo(clock);
}

type Job = { fn: (tx: Tx) => Promise<unknown>; resolve: (value: unknown) => void; reject: (err: unknown) => void };
type Group = { queue: Job[]; first: Job[]; running: boolean };

// Per database handle (an app, a test's app), never shared.
const groups = new WeakMap<object, Group>();

// One savepoint at a time, released before the next, so one name serves.
const SAVEPOINT = CompiledQuery.raw('savepoint write_job');
const RELEASE = CompiledQuery.raw('release write_job');
const ROLLBACK_TO = CompiledQuery.raw('rollback to write_job');

function writeGrouped<T>(deps: EffectSinks, fn: (tx: Tx) => Promise<T>, first: boolean, soon: boolean): Promise<T> {
  let group = groups.get(deps.db);
  if (!group) groups.set(deps.db, (group = { queue: [], first: [], running: false }));
  const g = group;
  return new Promise<T>((resolve, reject) => {
    (first ? g.first : g.queue).push({ fn, resolve: resolve as (value: unknown) => void, reject });
    if (g.running) return;
    g.running = true;
    // Writes started in the same turn of the event loop (the requests read together) join the first
    // transaction; a lone write waits only for that turn to end. One a customer waits on (`soon`)
    // starts before the turn's other callbacks: `npm run -s bench ai`, an assistant's added latency
    // p95 12.1 → 10.0 ms and p99 26.7 → 17.0 ms (four interleaved pairs, each better); flows and
    // the outbox benchmark unchanged.
    if (soon) queueMicrotask(() => void drain(deps, g));
    else setImmediate(() => void drain(deps, g));
  });
}

async function drain(deps: EffectSinks, group: Group): Promise<void> {
  try {
    while (waiting(group) > 0) {
      await runGroup(deps, group);
      // Timers and sockets get their turn before the next group.
      if (waiting(group) > 0) await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    group.running = false;
  }
}

const waiting = (group: Group) => group.first.length + group.queue.length;
const nextJob = (group: Group) => group.first.shift() ?? group.queue.shift();

type Done = { job: Job; log: EffectLog } & ({ ok: true; value: unknown } | { ok: false; error: unknown });

/** One transaction: the queued writes (and those arriving meanwhile, up to MAX_GROUP), each in a savepoint. */
async function runGroup(deps: EffectSinks, group: Group): Promise<void> {
  let trx;
  try {
    trx = await deps.db.startTransaction().execute();
    trackTransaction(deps.db, trx);
  } catch (err) {
    for (const job of [...group.first.splice(0), ...group.queue.splice(0)]) job.reject(err);
    return;
  }
  const done: Done[] = [];
  const clock = { slice: performance.now(), worked: 0, mayLetGo: soleWriter(deps.db) };
  clocks.set(trx, clock);
  try {
    // A statement asked to go first (runFirst: an outbox lane's claim) ends the group early: it
    // waits for one write at most, not for a whole group.
    // A write asked to go first (the outbox recording a send: its lane holds a slot until then) is
    // also committed at once rather than after the rest of the group's budget, unless another such
    // write waits. In bench outbox, while the replies were being pushed, lanes found every slot held
    // by sends being recorded about half as often (353–510 times against 558–1,201 in the first 10 s)
    // and sent 8 % more (556/s against 514/s, mean of five interleaved pairs).
    let ranFirst = false;
    while (waiting(group) > 0 && done.length < MAX_GROUP && clock.worked + performance.now() - clock.slice < GROUP_BUDGET_MS && !(done.length > 0 && firstWaiting(deps.db)) && !(ranFirst && group.first.length === 0)) {
      // What arrived meanwhile (a statement asked to go first) is looked at again.
      if (await letGo(clock, deps.db)) continue;
      ranFirst = group.first.length > 0;
      const job = nextJob(group)!;
      const log = collectEffects();
      await runCompiled(trx, SAVEPOINT);
      try {
        const value = await job.fn(txOf(deps, trx, log.effects));
        await runCompiled(trx, RELEASE);
        done.push({ job, log, ok: true, value });
      } catch (error) {
        await runCompiled(trx, ROLLBACK_TO);
        await runCompiled(trx, RELEASE);
        done.push({ job, log, ok: false, error });
      }
    }
    await trx.commit().execute();
  } catch (err) {
    // The transaction itself failed (the commit, a savepoint): nothing of it stands.
    await trx.rollback().execute().catch(() => undefined);
    for (const d of done) await d.log.rollback(deps.log);
    for (const d of done) d.job.reject(err);
    return;
  } finally {
    addWriteTime(deps.db, clock.worked + performance.now() - clock.slice);
  }
  for (const d of done) {
    if (d.ok) {
      d.log.commit(deps);
      d.job.resolve(d.value);
    } else {
      await d.log.rollback(deps.log);
      d.job.reject(d.error);
    }
  }
}

/** The `Tx` of a transaction some other owner opened (the inbound pipeline's group commit). */
export function txOf(deps: Reader, trx: Transaction<DB>, effects: Effects): Tx {
  return { db: trx, dialect: deps.dialect, config: deps.config, log: deps.log, effects };
}
