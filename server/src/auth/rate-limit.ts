// Fixed-window attempt counters for login and password reset, kept in memory per process.
// Keys are "ip:<addr>" and "acct:<email>"; a success clears the account's counter.
import { AppError } from '@zapdesk/sync';
import type { RateLimits } from '../config.ts';

export type RateLimiter = {
  /** Counts one attempt for each key; throws ERR_TOO_MANY_REQUESTS when any key is over its limit. */
  hit(keys: { ip: string; account?: string }): void;
  reset(account: string): void;
};

export function createRateLimiter(limits: RateLimits, now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const bump = (key: string, limit: number) => {
    const t = now();
    let w = windows.get(key);
    if (!w || w.resetAt <= t) {
      w = { count: 0, resetAt: t + limits.windowMs };
      windows.set(key, w);
    }
    w.count += 1;
    return w.count > limit ? Math.ceil((w.resetAt - t) / 1000) : 0;
  };
  const sweep = () => {
    const t = now();
    for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
  };
  let calls = 0;
  return {
    hit({ ip, account }) {
      if (++calls % 1000 === 0) sweep();
      const waits = [bump(`ip:${ip}`, limits.perIp), account ? bump(`acct:${account}`, limits.perAccount) : 0];
      const wait = Math.max(...waits);
      if (wait > 0) {
        throw new AppError('ERR_TOO_MANY_REQUESTS', `Too many attempts. Try again in ${wait} s.`, { details: { retryAfter: wait } });
      }
    },
    reset(account) {
      windows.delete(`acct:${account}`);
    },
  };
}
