// Pruning the delivery log (README.md "Log"): settled rows (done, failed) are kept for
// `retentionDays`, and at most `keepPerWebhook` rows per webhook (the newest). Queued and running
// rows are never touched. Deletes go in slices of PRUNE_BATCH ids, each its own short statement
// (no long transaction holds the table while the worker claims and settles), with a turn of the
// event loop between slices.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { sql } from 'kysely';
import type { AppDeps } from '../context.ts';
import { tenant } from '../db/tenant.ts';
import type { Database } from '../db/database.ts';
import { startCronJob, type RunningJob } from '../jobs/runner.ts';

export const PRUNE_BATCH = 1_000;
/** Every hour, at minute 17 (away from the other jobs' round minutes). */
export const PRUNE_CRON = '17 * * * *';

// Written as SQL text, as in the partial index's predicate: SQLite uses a partial index only for a
// WHERE it can match to it, which a bound parameter list is not.
const settled = sql<boolean>`state in ('done', 'failed')`;

export type PruneOptions = { retentionDays: number; keepPerWebhook: number; batch?: number };
export type PruneResult = { expired: number; overCap: number };

/** Deletes the rows of `ids` (already settled) in one statement. */
async function deleteIds(db: Database, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const res = await db.deleteFrom('webhookDeliveries').where('id', 'in', ids).where(settled).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Settled rows older than the retention period, oldest first (index webhook_deliveries_settled). */
async function pruneExpired(db: Database, cutoff: string, batch: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await db.selectFrom('webhookDeliveries').select('id').where(settled).where('updatedAt', '<', cutoff).orderBy('updatedAt').orderBy('id').limit(batch).execute();
    deleted += await deleteIds(db, rows.map((r) => r.id));
    if (rows.length < batch) return deleted;
    await yieldToEventLoop();
  }
}

/** Per webhook, the settled rows past its newest `keep` (index webhook_deliveries_company_webhook). */
async function pruneOverCap(db: Database, keep: number, batch: number): Promise<number> {
  let deleted = 0;
  const hooks = await db.selectFrom('webhooks').select(['id', 'companyId']).orderBy('id').execute();
  for (const hook of hooks) {
    const t = tenant(db, hook.companyId);
    // The id of the newest row past the cap: it and everything older that is settled goes.
    const edge = await t.selectFrom('webhookDeliveries').select('webhookDeliveries.id').where('webhookDeliveries.webhookId', '=', hook.id).orderBy('webhookDeliveries.id', 'desc').limit(1).offset(keep).executeTakeFirst();
    if (!edge) continue;
    for (;;) {
      const rows = await t
        .selectFrom('webhookDeliveries')
        .select('webhookDeliveries.id')
        .where('webhookDeliveries.webhookId', '=', hook.id)
        .where('webhookDeliveries.id', '<=', edge.id)
        .where(sql<boolean>`webhook_deliveries.state in ('done', 'failed')`)
        .orderBy('webhookDeliveries.id')
        .limit(batch)
        .execute();
      deleted += await deleteIds(db, rows.map((r) => r.id));
      if (rows.length < batch) break;
      await yieldToEventLoop();
    }
  }
  return deleted;
}

/** One pass at `now` (tests pass a fake clock). */
export async function pruneWebhookDeliveries(deps: Pick<AppDeps, 'db'>, opts: PruneOptions, now: Date = new Date()): Promise<PruneResult> {
  const batch = opts.batch ?? PRUNE_BATCH;
  const cutoff = new Date(now.getTime() - opts.retentionDays * 86_400_000).toISOString();
  const expired = await pruneExpired(deps.db, cutoff, batch);
  const overCap = await pruneOverCap(deps.db, opts.keepPerWebhook, batch);
  return { expired, overCap };
}

export function startWebhookPruneJob(deps: AppDeps): RunningJob {
  const { retentionDays, keepPerWebhook } = deps.config.webhooks;
  return startCronJob({
    name: 'webhook-deliveries-prune',
    cron: PRUNE_CRON,
    log: deps.log,
    run: async () => {
      const result = await pruneWebhookDeliveries(deps, { retentionDays, keepPerWebhook });
      if (result.expired + result.overCap > 0) deps.log.info('webhook deliveries pruned', result);
    },
  });
}
