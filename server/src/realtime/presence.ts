// Presence: users.online is 1 while at least one socket of the user is open on any instance.
//
// Each instance counts its own sockets per user. The first one opening marks the user online; the
// last one closing starts a grace period (a reload reconnects within it) and tells the other
// instances over the bus (`userLeft`): one still holding a socket of the user answers by writing
// a `last_seen_at` later than the moment of leaving. At the end of the grace period the user goes
// offline only if nobody did (`last_seen_at <= since`), so no instance flips a user another one
// still serves. While sockets live, `last_seen_at` is touched on the heartbeat (at most once per
// TOUCH_MS per user, without a version bump: nobody pulls for it); an instance that dies stops
// touching, and the presence job (jobs/presence.ts) marks its users offline once stale.
//
// Every change of the flag is a write (DESIGN §12): it bumps the row's version and pokes the company
// as an effect, so synced user rows and the dashboard follow. The last_seen_at touch alone bumps
// nothing (sync/README.md, the version-bump rule: no client sees it, so it costs nobody a pull).
// Every statement goes through tenant(): only the user's own company.
import type { AppDeps } from '../context.ts';
import { nowIso } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';
import { write, type Tx } from '../db/write.ts';
import { createKeyedLock } from '../inbound/keyed-lock.ts';
import { bumpVersion } from '../sync/version.ts';
import { change, emit } from '../events/emit.ts';

/** A reload reconnects well within this; closing the last socket marks offline after it. */
export const PRESENCE_GRACE_MS = 5_000;
/** last_seen_at is refreshed at most this often per user while a socket lives. */
export const PRESENCE_TOUCH_MS = 30_000;
/** Online with last_seen_at older than this: its instance died (5 heartbeats of 18 s). */
export const PRESENCE_STALE_MS = 90_000;

export type PresenceOptions = { graceMs?: number; touchMs?: number };

/** Marks the users online (version bumped, company poked) and refreshes their last_seen_at. */
export async function markUsersOnline(tx: Tx, companyId: number, userIds: number[], seenAt = nowIso()): Promise<number[]> {
  if (!userIds.length) return [];
  const t = tenant(tx.db, companyId);
  const changed = await t.updateTable('users').set({ online: 1, lastSeenAt: seenAt, ...bumpVersion() }).where('users.id', 'in', userIds).where('users.online', '=', 0).returning('users.id').execute();
  const done = new Set(changed.map((r) => r.id));
  const rest = userIds.filter((id) => !done.has(id));
  // Already online: only the last-seen time, which no client sees (no bump, no pull).
  if (rest.length) await t.updateTable('users').set({ lastSeenAt: seenAt }).where('users.id', 'in', rest).execute();
  if (done.size) {
    tx.effects.poke(companyId);
    await emit(tx, [...done].map((id) => change(companyId, 'user', 'update', id)));
  }
  return [...done];
}

/**
 * Marks the users offline (version bumped, company poked). With `seenUntil`, only those nobody saw
 * after that moment: an instance still serving them wrote a later last_seen_at.
 */
export async function markUsersOffline(tx: Tx, companyId: number, userIds: number[], seenUntil?: string): Promise<number[]> {
  if (!userIds.length) return [];
  const rows = await tenant(tx.db, companyId)
    .updateTable('users')
    .set({ online: 0, ...bumpVersion() })
    .where('users.id', 'in', userIds)
    .where('users.online', '=', 1)
    .$if(seenUntil !== undefined, (q) => q.where((eb) => eb.or([eb('users.lastSeenAt', 'is', null), eb('users.lastSeenAt', '<=', seenUntil!)])))
    .returning('users.id')
    .execute();
  if (rows.length) {
    tx.effects.poke(companyId);
    await emit(tx, rows.map((r) => change(companyId, 'user', 'update', r.id)));
  }
  return rows.map((r) => r.id);
}

export type Presence = {
  /** Resolves once the user is marked online (or the write failed and was logged). */
  opened(companyId: number, userId: number): Promise<void>;
  closed(companyId: number, userId: number): void;
  /** Called on the socket heartbeat: refreshes last_seen_at of the users connected here (throttled). */
  heartbeat(): void;
  /** Stops the timers and waits for the writes under way; the users left go offline through the job or reconnect elsewhere. */
  close(): Promise<void>;
};

export function createPresence(deps: AppDeps, opts: PresenceOptions = {}): Presence {
  const graceMs = opts.graceMs ?? PRESENCE_GRACE_MS;
  const touchMs = opts.touchMs ?? PRESENCE_TOUCH_MS;
  const sockets = new Map<string, number>();
  const touchedAt = new Map<string, number>();
  const leaving = new Map<string, NodeJS.Timeout>();
  // One user's writes run in order (an open racing its own close would end the wrong way round).
  const lock = createKeyedLock();
  const inFlight = new Set<Promise<unknown>>();
  let closed = false;
  const keyOf = (companyId: number, userId: number) => `${companyId}:${userId}`;
  const parse = (key: string) => key.split(':').map(Number) as [number, number];

  /** Runs one user's (or company's) presence write after the ones before it; a failure is logged. */
  function enqueue(key: string, work: () => Promise<unknown>): Promise<void> {
    const p = lock.run(key, work).then(
      () => undefined,
      (err: unknown) => deps.log.warn('presence write failed', { key, error: String(err) }),
    );
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    return p;
  }

  const unsubscribe = deps.realtime.onUserLeft((companyId, userId, since) => {
    const key = keyOf(companyId, userId);
    if (closed || !sockets.has(key)) return;
    // Still here: a last-seen later than `since` keeps the other instance from marking offline
    // (later on the leaver's clock too, whatever the skew between the two).
    const seenAt = new Date(Math.max(Date.now(), Date.parse(since) + 1)).toISOString();
    touchedAt.set(key, Date.now());
    void enqueue(key, () => write(deps, (tx) => markUsersOnline(tx, companyId, [userId], seenAt)));
  });

  return {
    async opened(companyId, userId) {
      if (closed) return;
      const key = keyOf(companyId, userId);
      const count = sockets.get(key) ?? 0;
      sockets.set(key, count + 1);
      // Not the first: only wait for the first one's write, if still under way.
      if (count > 0) return enqueue(key, async () => {});
      clearTimeout(leaving.get(key));
      leaving.delete(key);
      touchedAt.set(key, Date.now());
      return enqueue(key, () => write(deps, (tx) => markUsersOnline(tx, companyId, [userId])));
    },
    closed(companyId, userId) {
      if (closed) return;
      const key = keyOf(companyId, userId);
      const count = (sockets.get(key) ?? 0) - 1;
      if (count > 0) return void sockets.set(key, count);
      sockets.delete(key);
      touchedAt.delete(key);
      const since = nowIso();
      deps.realtime.userLeft(companyId, userId, since);
      const timer = setTimeout(() => {
        leaving.delete(key);
        void enqueue(key, () => write(deps, (tx) => markUsersOffline(tx, companyId, [userId], since)));
      }, graceMs);
      leaving.set(key, timer);
    },
    heartbeat() {
      if (closed) return;
      const now = Date.now();
      // Taken now, not when the write runs: a socket closing meanwhile must find it older than its `since`.
      const seenAt = new Date(now).toISOString();
      const due = new Map<number, number[]>();
      for (const key of sockets.keys()) {
        if (now - (touchedAt.get(key) ?? 0) < touchMs) continue;
        touchedAt.set(key, now);
        const [companyId, userId] = parse(key);
        due.set(companyId, [...(due.get(companyId) ?? []), userId]);
      }
      // One statement per company; a user someone marked offline meanwhile (the job, a lost race)
      // is online again, since a socket of theirs is open here.
      for (const [companyId, userIds] of due) void enqueue(`company:${companyId}`, () => write(deps, (tx) => markUsersOnline(tx, companyId, userIds, seenAt)));
    },
    async close() {
      closed = true;
      unsubscribe();
      for (const timer of leaving.values()) clearTimeout(timer);
      leaving.clear();
      await Promise.all([...inFlight]);
    },
  };
}
