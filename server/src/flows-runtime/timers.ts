// The flow timer job: waits (interval nodes, content waits) and answer timeouts are flow_timers rows;
// every 250 ms a pass fires those due. Exactly once: each timer is claimed by one conditional update
// (`pending` → `fired`) in the same write as the step it causes, so a second pass or instance
// running at the same moment updates nothing (on PostgreSQL it waits on the row lock, then finds it
// fired) and a crash before the commit leaves it pending for the next pass. Rows survive restarts;
// a timer due while the server was down fires on the first pass after it comes back.
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

export type RunningFlowTimers = { stop(): Promise<void> };

/** The loop `server.ts` starts: a pass `tickMs` (250 ms) after the previous one ended, so a wait ends within a fraction of a second of its due time. */
export function startFlowTimerJob(deps: AppDeps, opts: { tickMs?: number; now?: () => Date } = {}): RunningFlowTimers {
  const tickMs = opts.tickMs ?? 250;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const tick = () => {
    if (stopped) return;
    running = fireDueFlowTimers(deps, { now: opts.now?.() })
      .catch((err: unknown) => deps.log.error('flow timer pass failed', { error: String(err) }))
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(tick, tickMs);
      });
  };
  timer = setTimeout(tick, tickMs);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
