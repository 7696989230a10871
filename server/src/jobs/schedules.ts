// The scheduled-messages job (DESIGN §6): every minute, claim the due schedules and queue each one's
// message through its company's default connection (schedule-delivery.ts): ENVIADA (with sentAt)
// once queued, ERRO (with the code) when it cannot be queued or the outbox fails it for good.
//
// Exactly once: a row is claimed by one UPDATE … RETURNING that only takes unclaimed PENDENTE rows
// (on PostgreSQL the candidate rows are locked FOR UPDATE SKIP LOCKED, so instances never wait on
// each other), and only the claimer may mark it. Marking it ENVIADA and queueing its message are one
// transaction, and the outbox sends only what committed, so a claim whose process died before that
// commit sent nothing: a stale claim is simply released and the schedule goes out on a later pass.
// While a pass works, it renews its claims (a heartbeat), so a claim goes stale only when its
// process died.
//
// The claim and the stale sweep cross companies on purpose (one job serves every tenant); each
// claimed row is then handled through tenant(db, row.companyId).
import { randomUUID } from 'node:crypto';
import { AppError } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { AppDeps } from '../context.ts';
import type { Schedules } from '../db/schema.ts';
import { tenant } from '../db/tenant.ts';
import { startCronJob, type RunningJob } from './runner.ts';
import { queueSchedule } from './schedule-delivery.ts';
import { write } from '../db/write.ts';

type ScheduleRow = Selectable<Schedules>;

export const SCHEDULES_CRON = '* * * * *';
/** A claim not renewed for this long belongs to a process that died. */
export const STALE_CLAIM_MS = 5 * 60_000;

export type ScheduleJobOptions = {
  /** The job's clock; tests pass a fixed moment. */
  now?: () => Date;
  /** Names this pass's claims; unique per pass unless given. */
  claimer?: string;
  /** Zone of the template's greeting, date and hour: the server's zone unless given (TZ). */
  timeZone?: string;
  batchSize?: number;
  staleAfterMs?: number;
  heartbeatMs?: number;
};

/** `sent`: queued in the outbox (it leaves after the commit); `released`: stale claims given back. */
export type ScheduleRunResult = { claimed: number; sent: number; failed: number; released: number };

const serverTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Claims up to `limit` due, unclaimed schedules for `claimer`; the rows returned are this caller's alone. */
export async function claimDueSchedules(deps: AppDeps, opts: { now: Date; claimer: string; limit: number }): Promise<ScheduleRow[]> {
  const now = opts.now.toISOString();
  const due = deps.db
    .selectFrom('schedules')
    .select('schedules.id')
    .where('schedules.status', '=', 'PENDENTE')
    .where('schedules.claimedAt', 'is', null)
    .where('schedules.sentAt', 'is', null)
    .where('schedules.sendAt', '<=', now)
    .orderBy('schedules.sendAt')
    .orderBy('schedules.id')
    .limit(opts.limit)
    .$if(deps.dialect === 'postgres', (q) => q.forUpdate().skipLocked());
  return deps.db
    .updateTable('schedules')
    .set({ claimedAt: now, claimedBy: opts.claimer })
    .where('schedules.id', 'in', due)
    // Re-checked on the row itself: on PostgreSQL a row another instance claimed and committed
    // meanwhile fails this test after its lock is released, so it is never claimed twice.
    .where('schedules.claimedAt', 'is', null)
    .where('schedules.status', '=', 'PENDENTE')
    .returningAll()
    .execute();
}

/**
 * Gives back the claims whose process stopped renewing them: it died before its one write, so
 * nothing of theirs was queued or sent. Returns how many.
 */
export async function releaseStaleClaims(deps: AppDeps, now: Date, staleAfterMs = STALE_CLAIM_MS): Promise<number> {
  const res = await deps.db
    .updateTable('schedules')
    .set({ claimedAt: null, claimedBy: null })
    .where('schedules.status', '=', 'PENDENTE')
    .where('schedules.sentAt', 'is', null)
    .where('schedules.claimedAt', 'is not', null)
    .where('schedules.claimedAt', '<', new Date(now.getTime() - staleAfterMs).toISOString())
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Renews this claimer's unfinished claims, so a slow send is not taken for a dead one. */
async function renewClaims(deps: AppDeps, claimer: string, at: Date) {
  await deps.db
    .updateTable('schedules')
    .set({ claimedAt: at.toISOString() })
    .where('schedules.claimedBy', '=', claimer)
    .where('schedules.status', '=', 'PENDENTE')
    .where('schedules.sentAt', 'is', null)
    .execute();
}

/** Queues one claimed schedule; resolves to its status (never throws for a refusal, which is recorded). */
export async function sendClaimedSchedule(deps: AppDeps, row: ScheduleRow, opts: { clock: () => Date; timeZone: string }): Promise<'ENVIADA' | 'ERRO' | 'lost'> {
  let code: string;
  try {
    return (await queueSchedule(deps, row, { now: opts.clock(), timeZone: opts.timeZone })) ? 'ENVIADA' : 'lost';
  } catch (err) {
    code = err instanceof AppError ? err.code : 'ERR_SENDING_WAPP_MSG';
    if (!(err instanceof AppError)) deps.log.error('scheduled send failed', { scheduleId: row.id, error: String(err) });
  }
  const at = opts.clock().toISOString();
  // Only the claimer marks.
  await write(deps, async (tx) => {
    await tenant(tx.db, row.companyId)
      .updateTable('schedules')
      .set((eb) => ({ status: 'ERRO', sentAt: null, error: code, updatedAt: at, version: eb('schedules.version', '+', 1) }))
      .where('schedules.id', '=', row.id)
      .where('schedules.claimedBy', '=', row.claimedBy)
      .where('schedules.status', '=', 'PENDENTE')
      .execute();
    tx.effects.poke(row.companyId);
  });
  return 'ERRO';
}

/** One pass: sweep stale claims, then claim and send batches until nothing is due. */
export async function runSchedulesOnce(deps: AppDeps, opts: ScheduleJobOptions = {}): Promise<ScheduleRunResult> {
  const clock = opts.now ?? (() => new Date());
  const now = clock();
  const claimer = opts.claimer ?? `${randomUUID()}`;
  const limit = opts.batchSize ?? 50;
  const timeZone = opts.timeZone ?? serverTimeZone();
  const result: ScheduleRunResult = { claimed: 0, sent: 0, failed: 0, released: 0 };
  result.released = await releaseStaleClaims(deps, now, opts.staleAfterMs);
  const heartbeat = setInterval(() => {
    renewClaims(deps, claimer, clock()).catch((err: unknown) => deps.log.warn('schedule claim renewal failed', { error: String(err) }));
  }, opts.heartbeatMs ?? 60_000);
  try {
    for (;;) {
      const claimed = await claimDueSchedules(deps, { now, claimer, limit });
      result.claimed += claimed.length;
      for (const row of claimed) {
        const status = await sendClaimedSchedule(deps, row, { clock, timeZone });
        if (status === 'ENVIADA') result.sent++;
        else if (status === 'ERRO') result.failed++;
      }
      if (claimed.length < limit) break;
    }
  } finally {
    clearInterval(heartbeat);
  }
  return result;
}

/** Starts the every-minute job. */
export function startSchedulesJob(deps: AppDeps, opts: Omit<ScheduleJobOptions, 'claimer' | 'now'> = {}): RunningJob {
  return startCronJob({ name: 'schedules', cron: SCHEDULES_CRON, log: deps.log, run: () => runSchedulesOnce(deps, opts) });
}
