// What the pipeline reads about a connection on every message (its row, the company's settings and
// the connection's queues), kept for a moment: under a burst of deliveries these three reads would
// otherwise repeat for every message. A change in the admin screens applies within CONTEXT_TTL_MS.
import type { Selectable } from 'kysely';
import type { AppDeps } from '../context.ts';
import type { Whatsapps } from '../db/schema.ts';
import { tenant } from '../db/tenant.ts';
import { findConnectionQueues, type MenuQueue } from './menu.ts';
import { readSettings, type CompanySettings } from './settings.ts';

export const CONTEXT_TTL_MS = 2_000;

export type ConnectionContext = { connection: Selectable<Whatsapps>; settings: CompanySettings; queues: MenuQueue[] };

type Entry = { at: number; value: Promise<ConnectionContext | undefined> };

// Per app (keyed by its deps), never shared between apps or tests.
const caches = new WeakMap<AppDeps, Map<number, Entry>>();

export function loadConnectionContext(deps: AppDeps, ref: { id: number; companyId: number }): Promise<ConnectionContext | undefined> {
  let cache = caches.get(deps);
  if (!cache) caches.set(deps, (cache = new Map()));
  const now = Date.now();
  const hit = cache.get(ref.id);
  if (hit && now - hit.at < CONTEXT_TTL_MS) return hit.value;
  const value = (async () => {
    const connection = await tenant(deps.db, ref.companyId).selectFrom('whatsapps').selectAll('whatsapps').where('whatsapps.id', '=', ref.id).executeTakeFirst();
    if (!connection) return undefined;
    const [settings, queues] = await Promise.all([readSettings(deps.db, ref.companyId), findConnectionQueues(deps.db, ref.companyId, ref.id)]);
    return { connection, settings, queues };
  })();
  cache.set(ref.id, { at: now, value });
  // A failed read is not kept.
  value.catch(() => cache.delete(ref.id));
  return value;
}

/** Forgets what is kept (tests that change a connection and expect the next message to see it). */
export function forgetConnectionContext(deps: AppDeps, connectionId?: number): void {
  const cache = caches.get(deps);
  if (connectionId === undefined) cache?.clear();
  else cache?.delete(connectionId);
}
