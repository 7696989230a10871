// What the pipeline reads about a connection on every message (its row, the company's settings and
// the connection's queues), kept for a moment: under a burst of deliveries these three reads would
// otherwise repeat for every message. A write that changes a connection, a queue or a setting
// forgets what is kept once it commits (`connectionsChanged`), so an admin's change applies to the
// next message on this instance; on another instance (PostgreSQL, DESIGN §11) within CONTEXT_TTL_MS.
import type { Selectable } from 'kysely';
import type { AppDeps } from '../context.ts';
import type { Tx } from '../db/write.ts';
import type { Whatsapps } from '../db/schema.ts';
import { tenant } from '../db/tenant.ts';
import { findConnectionQueues, type MenuQueue } from './menu.ts';
import { readSettings, type CompanySettings } from './settings.ts';

export const CONTEXT_TTL_MS = 2_000;

export type ConnectionContext = { connection: Selectable<Whatsapps>; settings: CompanySettings; queues: MenuQueue[] };

type Entry = { at: number; value: Promise<ConnectionContext | undefined> };

// Per app, never shared between apps or tests: keyed by its session manager, which the effects
// after a commit reach too (db/write.ts EffectSinks).
const caches = new WeakMap<AppDeps['sessions'], Map<number, Entry>>();

export function loadConnectionContext(deps: AppDeps, ref: { id: number; companyId: number }): Promise<ConnectionContext | undefined> {
  let cache = caches.get(deps.sessions);
  if (!cache) caches.set(deps.sessions, (cache = new Map()));
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

/**
 * Registers, in a write that changes a connection, a queue (its greeting, prompt, integration, the
 * connections it serves) or a company setting, that what is kept goes once the write commits: all of
 * it, as a queue or a setting reaches many connections and the next message reads it all again.
 */
export function connectionsChanged(tx: Tx): void {
  tx.effects.afterCommit((app) => caches.get(app.sessions)?.clear());
}
