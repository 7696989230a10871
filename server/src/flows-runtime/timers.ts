// The flow timer job: waits (interval nodes, content waits) and answer timeouts are flow_timers rows;
// a pass fires those due, then the job sleeps until the next one is due (at most 250 ms, so a timer
// set meanwhile, here or by another instance, is seen in time). Exactly once: each timer is claimed
// by one conditional update (`pending` → `fired`) in the same write as the step it causes, so a
// second pass or instance running at the same moment updates nothing (on PostgreSQL it waits on the
// row lock, then finds it fired) and a crash before the commit leaves it pending for the next pass.
// Rows survive restarts; a timer due while the server was down fires on the first pass after it
// comes back.
//
// The look-up of due timers crosses companies on purpose (one job serves every tenant); each timer
// is then handled within its row's company (statements compiled once take the company id, as
// tenant() does).
import { sql } from 'kysely';
import type { AppDeps } from '../context.ts';
import { prepare } from '../db/prepared.ts';
import { write } from '../db/write.ts';
import { lockTicket } from './runs.ts';
import { fireRunTimer } from './runtime.ts';

export type FlowTimerPassResult = { fired: number; lost: number };

/** PostgreSQL: timer writes in flight at once (the pool has 10 connections). */
const PG_TIMER_WRITERS = 3;

/** pending → fired, the claim of one timer (compiled once: a pass runs it for every due timer). */
const claimTimer = prepare((db, p: { companyId: number; id: number; at: string }) =>
  db
    .updateTable('flowTimers')
    .set({ status: 'fired', firedAt: p.at, updatedAt: p.at })
    .where('flowTimers.companyId', '=', p.companyId)
    .where('flowTimers.id', '=', p.id)
    .where(sql<boolean>`flow_timers.status = 'pending'`),
);

/** One pass: fires up to `limit` due timers, oldest first. */
export async function fireDueFlowTimers(deps: AppDeps, opts: { now?: Date; limit?: number } = {}): Promise<FlowTimerPassResult> {
  const now = opts.now ?? new Date();
  const due = await deps.db
    .selectFrom('flowTimers')
    .innerJoin('flowRuns', 'flowRuns.id', 'flowTimers.runId')
    .select(['flowTimers.id', 'flowTimers.companyId', 'flowTimers.runId', 'flowTimers.timerId', 'flowRuns.ticketId'])
    // A literal, so both planners use the partial index of pending timers.
    .where(sql<boolean>`flow_timers.status = 'pending'`)
    .where('flowTimers.dueAt', '<=', now.toISOString())
    .orderBy('flowTimers.dueAt')
    .orderBy('flowTimers.id')
    .limit(opts.limit ?? 500)
    .execute();
  const result: FlowTimerPassResult = { fired: 0, lost: 0 };
  // One write per timer. SQLite: all started together, they share group commits. PostgreSQL: a few
  // at a time, so deliveries and the outbox keep connections of the pool.
  const fire = async (timer: (typeof due)[number]) => {
    const fired = await write(deps, async (tx) => {
      // fired_at: when it really fired (the pass's `now` may be a test's chosen moment).
      const at = new Date().toISOString();
      // PostgreSQL: the ticket first, as every runtime write and ticket transition locks it (runs.ts,
      // lockTicket): a timer and a message or an accept of the same ticket take turns.
      await lockTicket(tx, timer.companyId, timer.ticketId);
      const claimed = await claimTimer(tx.db, { companyId: timer.companyId, id: timer.id, at });
      if (Number(claimed.numAffectedRows ?? 0n) === 0) return false;
      await fireRunTimer(tx, timer.companyId, timer.runId, timer.timerId, now);
      return true;
    }).catch((err: unknown) => {
      deps.log.error('flow timer failed', { timerId: timer.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      return false;
    });
    if (fired) result.fired++;
    else result.lost++;
  };
  if (deps.dialect === 'sqlite') await Promise.all(due.map(fire));
  else {
    let next = 0;
    const worker = async () => {
      while (next < due.length) await fire(due[next++]!);
    };
    await Promise.all(Array.from({ length: PG_TIMER_WRITERS }, worker));
  }
  return result;
}

/** When the next pending timer is due (every company's; index flow_timers_due_pending), if any. */
export async function nextFlowTimerDue(deps: AppDeps): Promise<Date | undefined> {
  const row = await deps.db.selectFrom('flowTimers').select('flowTimers.dueAt').where(sql<boolean>`flow_timers.status = 'pending'`).orderBy('flowTimers.dueAt').limit(1).executeTakeFirst();
  return row ? new Date(row.dueAt) : undefined;
}

export type RunningFlowTimers = { stop(): Promise<void> };

/** Due timers one pass fires at most; a full pass is followed by the next at once. */
const PASS_LIMIT = 500;

/**
 * The loop `server.ts` starts: a pass at once, then one when the next pending timer is due, or after
 * `tickMs` (250 ms) if that is sooner (a timer set meanwhile is seen by then). A wait of a flow then
 * ends when it is due, not up to a quarter of a second (plus a pass) after.
 */
export function startFlowTimerJob(deps: AppDeps, opts: { tickMs?: number; now?: () => Date } = {}): RunningFlowTimers {
  const tickMs = opts.tickMs ?? 250;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const clock = () => (opts.now?.() ?? new Date()).getTime();
  const pass = async (): Promise<number> => {
    const started = clock();
    const done = await fireDueFlowTimers(deps, { now: new Date(started), limit: PASS_LIMIT });
    if (done.fired + done.lost >= PASS_LIMIT) return 0;
    const next = (await nextFlowTimerDue(deps))?.getTime();
    // None, or one this pass saw due and left pending (its write failed, or another instance has
    // it): the usual tick. One that came due during the pass: at once.
    if (next === undefined || next <= started) return tickMs;
    return Math.min(tickMs, Math.max(0, next - clock()));
  };
  const tick = () => {
    if (stopped) return;
    running = pass()
      .catch((err: unknown) => {
        deps.log.error('flow timer pass failed', { error: String(err) });
        return tickMs;
      })
      .then((delay) => {
        running = undefined;
        if (!stopped) timer = setTimeout(tick, delay);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
