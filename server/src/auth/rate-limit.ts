// Fixed-window attempt counters for login, password reset and sign-up. Keys are "ip:<addr>" and
// "acct:<email>". Every attempt counts before the password is checked (parallel guesses are
// counted too); a successful login clears its account's counter and gives its address's attempt
// back: a team behind one address (an office, a call centre) signs in as often as it needs to,
// while failures from it still add up.
// - One process (SQLite): the counters live in memory.
// - Several instances (PostgreSQL, DESIGN §11): in the auth_attempts table, so a client that spreads
//   its attempts over the instances meets the same limit as on one. One upsert per key and attempt,
//   outside any business transaction.
import { AppError } from '@zapdesk/sync';
import { sql } from 'kysely';
import type { RateLimits } from '../config.ts';
import type { Database } from '../db/database.ts';

export type RateLimiter = {
  /** Counts one attempt for each key; throws ERR_TOO_MANY_REQUESTS when any key is over its limit. */
  hit(keys: { ip: string; account?: string }): Promise<void>;
  /** The attempt `hit` counted was a successful login: the account's counter is cleared and the address's attempt given back. */
  succeeded(keys: { ip: string; account: string }): Promise<void>;
};

type Window = { count: number; resetAt: number };
/** Counts one attempt of `key` in its window (a new window once the last one ended). */
type Bump = (key: string, at: number) => Promise<Window>;
/** Takes one attempt of `key` back, in the window still running (never below zero). */
type Refund = (key: string, at: number) => Promise<void>;

function limiter(limits: RateLimits, now: () => number, bump: Bump, refund: Refund, clear: (key: string) => Promise<void>): RateLimiter {
  const waitOf = (w: Window, limit: number, at: number) => (w.count > limit ? Math.ceil((w.resetAt - at) / 1000) : 0);
  return {
    async hit({ ip, account }) {
      const at = now();
      const waits = [waitOf(await bump(`ip:${ip}`, at), limits.perIp, at)];
      if (account) waits.push(waitOf(await bump(`acct:${account}`, at), limits.perAccount, at));
      const wait = Math.max(...waits);
      if (wait > 0) {
        throw new AppError('ERR_TOO_MANY_REQUESTS', `Too many attempts. Try again in ${wait} s.`, { details: { retryAfter: wait } });
      }
    },
    async succeeded({ ip, account }) {
      await clear(`acct:${account}`);
      await refund(`ip:${ip}`, now());
    },
  };
}

/** Counters in this process's memory (one instance). */
export function createRateLimiter(limits: RateLimits, now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, Window>();
  let calls = 0;
  const sweep = (at: number) => {
    for (const [k, w] of windows) if (w.resetAt <= at) windows.delete(k);
  };
  return limiter(
    limits,
    now,
    async (key, at) => {
      if (++calls % 1000 === 0) sweep(at);
      let w = windows.get(key);
      if (!w || w.resetAt <= at) windows.set(key, (w = { count: 0, resetAt: at + limits.windowMs }));
      w.count += 1;
      return { ...w };
    },
    async (key, at) => {
      const w = windows.get(key);
      if (w && w.resetAt > at && w.count > 0) w.count -= 1;
    },
    async (key) => void windows.delete(key),
  );
}

/** Counters in the database, shared by every instance on it (PostgreSQL). */
export function createSharedRateLimiter(db: Database, limits: RateLimits, now: () => number = Date.now): RateLimiter {
  let calls = 0;
  return limiter(
    limits,
    now,
    async (key, at) => {
      const iso = new Date(at).toISOString();
      const next = new Date(at + limits.windowMs).toISOString();
      // Platform-wide rows (keys are addresses and e-mails, no company): expired ones go now and then.
      if (++calls % 1000 === 0) await db.deleteFrom('authAttempts').where('authAttempts.resetAt', '<=', iso).execute();
      const row = await db
        .insertInto('authAttempts')
        .values({ key, count: 1, resetAt: next })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            count: sql<number>`case when auth_attempts.reset_at <= ${iso} then 1 else auth_attempts.count + 1 end`,
            resetAt: sql<string>`case when auth_attempts.reset_at <= ${iso} then ${next} else auth_attempts.reset_at end`,
          }),
        )
        .returning(['authAttempts.count', 'authAttempts.resetAt'])
        .executeTakeFirstOrThrow();
      return { count: row.count, resetAt: Date.parse(row.resetAt) };
    },
    async (key, at) =>
      void (await db
        .updateTable('authAttempts')
        .set({ count: sql<number>`auth_attempts.count - 1` })
        .where('authAttempts.key', '=', key)
        .where('authAttempts.resetAt', '>', new Date(at).toISOString())
        .where('authAttempts.count', '>', 0)
        .execute()),
    async (key) => void (await db.deleteFrom('authAttempts').where('authAttempts.key', '=', key).execute()),
  );
}
