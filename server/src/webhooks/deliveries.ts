// The webhook_deliveries rows the worker claims and settles (README.md). Nothing here calls the
// network; each function is one statement outside any business write.
import { sql, type Selectable } from 'kysely';
import type { Database } from '../db/database.ts';
import type { WebhookDeliveries } from '../db/schema.ts';

export type DeliveryRecord = Selectable<WebhookDeliveries>;
export type ClaimedDelivery = DeliveryRecord & { url: string; secret: string };

const live = sql<boolean>`state in ('queued', 'running')`;

/** A page of live rows, oldest first, after the id `after` (the caller takes each key's oldest). */
export async function findQueuedDeliveries(db: Database, limit: number, after = 0): Promise<Pick<DeliveryRecord, 'id' | 'orderKey' | 'state' | 'notBefore'>[]> {
  return db
    .selectFrom('webhookDeliveries')
    .select(['id', 'orderKey', 'state', 'notBefore'])
    .where(live)
    .$if(after > 0, (q) => q.where('id', '>', after))
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Takes the rows for this process in one statement, with their webhook's URL and sealed secret. */
export async function claimDeliveries(db: Database, ids: number[], instance: string): Promise<ClaimedDelivery[]> {
  if (ids.length === 0) return [];
  const now = new Date().toISOString();
  const claimed = await db
    .updateTable('webhookDeliveries')
    .set((eb) => ({ state: 'running', claimedBy: instance, claimedAt: now, attempts: eb('webhookDeliveries.attempts', '+', 1), updatedAt: now }))
    .where('id', 'in', ids)
    .where('state', '=', 'queued')
    .returning('id')
    .execute();
  if (claimed.length === 0) return [];
  return db
    .selectFrom('webhookDeliveries')
    .innerJoin('webhooks', 'webhooks.id', 'webhookDeliveries.webhookId')
    .selectAll('webhookDeliveries')
    .select(['webhooks.url', 'webhooks.secret'])
    .where('webhookDeliveries.id', 'in', claimed.map((r) => r.id))
    .orderBy('webhookDeliveries.id')
    .execute();
}

export type Outcome = { responseStatus: number | null; durationMs: number; error: string | null };

export async function settleDelivery(db: Database, id: number, state: 'done' | 'failed' | 'queued', outcome: Outcome, notBefore: string | null = null): Promise<void> {
  const now = new Date().toISOString();
  await db
    .updateTable('webhookDeliveries')
    .set({ state, ...outcome, claimedBy: null, notBefore, updatedAt: now, ...(state === 'done' ? { deliveredAt: now } : {}) })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .execute();
}

/**
 * Rows left `running` by a process that is gone go back to the queue: posted again with the same
 * event id (at least once). `olderThan` spares rows another live instance is posting (PostgreSQL).
 */
export async function requeueAbandonedDeliveries(db: Database, opts: { olderThan?: string }): Promise<number> {
  const res = await db
    .updateTable('webhookDeliveries')
    .set({ state: 'queued', claimedBy: null, claimedAt: null, updatedAt: new Date().toISOString() })
    .where(live)
    .where('state', '=', 'running')
    .$if(opts.olderThan !== undefined, (q) => q.where('claimedAt', '<', opts.olderThan!))
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export async function hasLiveDeliveries(db: Database): Promise<boolean> {
  return (await db.selectFrom('webhookDeliveries').select('id').where(live).limit(1).executeTakeFirst()) !== undefined;
}
