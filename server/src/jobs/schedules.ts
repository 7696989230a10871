// The scheduled-messages job (DESIGN §6): every minute, claim the due schedules, send each through
// its company's default connection, and mark it ENVIADA (with sentAt) or ERRO (with the reason).
//
// Exactly once: a row is claimed by one UPDATE … RETURNING that only takes unclaimed PENDENTE rows
// (on PostgreSQL the candidate rows are locked FOR UPDATE SKIP LOCKED, so instances never wait on
// each other), and only the claimer may mark it. While a pass sends, it renews its claims (a
// heartbeat), so a claim goes stale only when its process died. A stale claim is never re-sent:
// the message may or may not have left before the crash, and a duplicate is worse than a visible
// ERRO the user can retry by editing the schedule.
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
import { deliverSchedule } from './schedule-delivery.ts';

type ScheduleRow = Selectable<Schedules>;

export const SCHEDULES_CRON = '* * * * *';
/** A claim not renewed for this long belongs to a process that died. */
export const STALE_CLAIM_MS = 5 * 60_000;
export const INTERRUPTED_ERROR = 'Interrupted while sending (the server stopped); not sent again to avoid a duplicate. Edit the schedule to retry.';

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

export type ScheduleRunResult = { claimed: number; sent: number; failed: number; interrupted: number };

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

/** Marks ERRO the claims whose process stopped renewing them; returns the companies touched. */
export async function failStaleClaims(deps: AppDeps, now: Date, staleAfterMs = STALE_CLAIM_MS): Promise<number[]> {
  const rows = await deps.db
    .updateTable('schedules')
    .set((eb) => ({ status: 'ERRO', error: INTERRUPTED_ERROR, updatedAt: now.toISOString(), version: eb('schedules.version', '+', 1) }))
    .where('schedules.status', '=', 'PENDENTE')
    .where('schedules.sentAt', 'is', null)
    .where('schedules.claimedAt', 'is not', null)
    .where('schedules.claimedAt', '<', new Date(now.getTime() - staleAfterMs).toISOString())
    .returning('schedules.companyId')
    .execute();
  return rows.map((r) => r.companyId);
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

/** Sends one claimed schedule; resolves to its final status (never throws for a send failure). */
export async function sendClaimedSchedule(deps: AppDeps, row: ScheduleRow, opts: { clock: () => Date; timeZone: string }): Promise<'ENVIADA' | 'ERRO'> {
  const t = tenant(deps.db, row.companyId);
  let error: string | null = null;
  try {
    const contact = await t.selectFrom('contacts').selectAll('contacts').where('contacts.id', '=', row.contactId).executeTakeFirst();
    if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
    const connection = await t.selectFrom('whatsapps').select('whatsapps.id').where('whatsapps.isDefault', '=', 1).orderBy('whatsapps.id').executeTakeFirst();
    if (!connection) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
    await deliverSchedule(deps, row, contact, connection.id, { now: opts.clock(), timeZone: opts.timeZone });
  } catch (err) {
    error = err instanceof AppError ? err.code : 'ERR_SENDING_WAPP_MSG';
    if (!(err instanceof AppError)) deps.log.error('scheduled send failed', { scheduleId: row.id, error: String(err) });
  }
  const at = opts.clock().toISOString();
  // Only the claimer marks; after a stale sweep this still records the truth (the send happened).
  await t
    .updateTable('schedules')
    .set((eb) => ({
      status: error ? 'ERRO' : 'ENVIADA',
      sentAt: error ? null : at,
      error,
      updatedAt: at,
      version: eb('schedules.version', '+', 1),
    }))
    .where('schedules.id', '=', row.id)
    .where('schedules.claimedBy', '=', row.claimedBy)
    .execute();
  return error ? 'ERRO' : 'ENVIADA';
}

/** One pass: sweep stale claims, then claim and send batches until nothing is due. */
export async function runSchedulesOnce(deps: AppDeps, opts: ScheduleJobOptions = {}): Promise<ScheduleRunResult> {
  const clock = opts.now ?? (() => new Date());
  const now = clock();
  const claimer = opts.claimer ?? `${randomUUID()}`;
  const limit = opts.batchSize ?? 50;
  const timeZone = opts.timeZone ?? serverTimeZone();
  const result: ScheduleRunResult = { claimed: 0, sent: 0, failed: 0, interrupted: 0 };
  const stale = await failStaleClaims(deps, now, opts.staleAfterMs);
  const touched = new Set<number>(stale);
  result.interrupted = stale.length;
  const heartbeat = setInterval(() => {
    renewClaims(deps, claimer, clock()).catch((err: unknown) => deps.log.warn('schedule claim renewal failed', { error: String(err) }));
  }, opts.heartbeatMs ?? 60_000);
  try {
    for (;;) {
      const claimed = await claimDueSchedules(deps, { now, claimer, limit });
      result.claimed += claimed.length;
      // Sends of one connection queue up in its FIFO; different companies go out in parallel.
      const statuses = await Promise.all(claimed.map((row) => sendClaimedSchedule(deps, row, { clock, timeZone })));
      for (const [i, status] of statuses.entries()) {
        touched.add(claimed[i]!.companyId);
        if (status === 'ENVIADA') result.sent++;
        else result.failed++;
      }
      if (claimed.length < limit) break;
    }
  } finally {
    clearInterval(heartbeat);
  }
  for (const companyId of touched) {
    try {
      deps.realtime.pokeCompany(companyId);
    } catch (err) {
      deps.log.warn('poke failed', { companyId, error: String(err) });
    }
  }
  return result;
}

/** Starts the every-minute job. */
export function startSchedulesJob(deps: AppDeps, opts: Omit<ScheduleJobOptions, 'claimer' | 'now'> = {}): RunningJob {
  return startCronJob({ name: 'schedules', cron: SCHEDULES_CRON, log: deps.log, run: () => runSchedulesOnce(deps, opts) });
}
