// Turning events into delivery rows, inside the write's transaction (README.md). Which webhooks a
// company has is cached per app for a few seconds, so the hot inbound path pays a map look-up for
// a company without any: the cache is dropped at once by a webhook's own writes here, and other
// instances see a change within SUBSCRIPTIONS_TTL_MS.
import { randomUUID } from 'node:crypto';
import type { WebhookPayload } from '@zapdesk/sync';
import type { Config } from '../config.ts';
import { tenant } from '../db/tenant.ts';
import type { Reader, Tx } from '../db/write.ts';
import { renderRecord, renderRecords } from '../events/records.ts';
import type { DomainEvent } from '../events/types.ts';

export const SUBSCRIPTIONS_TTL_MS = 5_000;

type Subscriptions = { hooks: { id: number; events: Set<string> }[]; events: Set<string>; at: number };

// Per app: keyed by its config object, the one thing every `Tx` of the app carries (tests run
// several apps whose company ids repeat).
const caches = new WeakMap<Config, Map<number, Subscriptions>>();

function cacheOf(config: Config) {
  let cache = caches.get(config);
  if (!cache) caches.set(config, (cache = new Map()));
  return cache;
}

/** A webhook of the company was written: the next event reads its webhooks again. */
export function forgetSubscriptions(config: Config, companyId: number) {
  cacheOf(config).delete(companyId);
}

/** The company's cached webhooks while fresh (no await on the hot path), else undefined. */
function cachedSubscriptions(r: Reader, companyId: number, now: number): Subscriptions | undefined {
  const cached = cacheOf(r.config).get(companyId);
  return cached && now - cached.at < SUBSCRIPTIONS_TTL_MS ? cached : undefined;
}

async function subscriptionsOf(r: Reader, companyId: number): Promise<Subscriptions> {
  const cache = cacheOf(r.config);
  const rows = await tenant(r.db, companyId).selectFrom('webhooks').select(['webhooks.id', 'webhooks.events']).where('webhooks.enabled', '=', 1).execute();
  const hooks = rows.map((w) => ({ id: w.id, events: new Set(JSON.parse(w.events) as string[]) }));
  const subs = { hooks, events: new Set(hooks.flatMap((h) => [...h.events])), at: Date.now() };
  cache.set(companyId, subs);
  return subs;
}

export type DeliveryRow = { webhookId: number; eventId: string; event: string; orderKey: string; payload: string };

/** One row per subscribed webhook of this event, the payload it will carry on every attempt. */
export function deliveryRows(webhookIds: number[], event: string, companyId: number, orderKey: string | undefined, data: unknown): DeliveryRow[] {
  const eventId = randomUUID();
  const payload: WebhookPayload = { id: eventId, event, companyId, timestamp: new Date().toISOString(), data };
  const text = JSON.stringify(payload);
  return webhookIds.map((webhookId) => ({ webhookId, eventId, event, orderKey: orderKey ?? `event:${eventId}`, payload: text }));
}

/** A batch's record is ordered like the single change of that row (`contact:{id}`). */
const batchOrderKey = (e: DomainEvent, id: number) => (e.orderKey ? `${e.orderKey}${id}` : undefined);

export async function queueWebhookDeliveries(tx: Tx, events: DomainEvent[]): Promise<void> {
  let byCompany: Map<number, DeliveryRow[]> | undefined;
  const now = Date.now();
  for (const e of events) {
    if (!e.hooks?.length) continue;
    const subs = cachedSubscriptions(tx, e.companyId, now) ?? (await subscriptionsOf(tx, e.companyId));
    if (subs.events.size === 0) continue;
    const wanted = e.hooks.filter((h) => subs.events.has(h));
    if (wanted.length === 0) continue;
    byCompany ??= new Map();
    const rows = byCompany.get(e.companyId) ?? [];
    byCompany.set(e.companyId, rows);
    if (e.batch) {
      // An import's batch: one delivery per record, as if each had been created alone.
      const records = (await renderRecords({ db: tx.db }, e)) as { id: number }[];
      for (const event of wanted) {
        const ids = subs.hooks.filter((h) => h.events.has(event)).map((h) => h.id);
        for (const record of records) rows.push(...deliveryRows(ids, event, e.companyId, batchOrderKey(e, record.id), record));
      }
      continue;
    }
    const data = await renderRecord({ db: tx.db }, e);
    if (data === undefined) continue;
    for (const event of wanted) rows.push(...deliveryRows(subs.hooks.filter((h) => h.events.has(event)).map((h) => h.id), event, e.companyId, e.orderKey, data));
  }
  for (const [companyId, rows] of byCompany ?? []) await insertDeliveries(tx, companyId, rows);
}

export async function insertDeliveries(tx: Tx, companyId: number, rows: DeliveryRow[]): Promise<void> {
  if (rows.length === 0) return;
  // In slices: 1,000 deliveries × 5 columns stay under every dialect's bound-parameter limit.
  for (let i = 0; i < rows.length; i += 1_000) await tenant(tx.db, companyId).insertInto('webhookDeliveries', rows.slice(i, i + 1_000)).execute();
  tx.effects.afterCommit((app) => app.webhooks.wake());
}
