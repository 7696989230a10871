// Attempt counters: a fixed window per key, a success clearing the account's, on a fake clock. On
// PostgreSQL two limiters on one database stand for two instances: they count together.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { createRateLimiter, createSharedRateLimiter, type RateLimiter } from './rate-limit.ts';

const limits = { perIp: 5, perAccount: 3, windowMs: 60_000 };

/** Whether the attempt was let through; the wait it was told otherwise. */
async function attempt(limiter: RateLimiter, keys: { ip: string; account?: string }): Promise<true | number> {
  try {
    await limiter.hit(keys);
    return true;
  } catch (err) {
    expect(err).toMatchObject({ code: 'ERR_TOO_MANY_REQUESTS' });
    return (err as { details: { retryAfter: number } }).details.retryAfter;
  }
}

describe.each(DIALECTS)('attempt limits on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  let clock = Date.UTC(2026, 10, 28, 12);
  const now = () => clock;
  /** Two instances' limiters (PostgreSQL), or one process's (SQLite). */
  const instances = (): [RateLimiter, RateLimiter] => {
    if (dialect === 'postgres') return [createSharedRateLimiter(t.db, limits, now), createSharedRateLimiter(t.db, limits, now)];
    const one = createRateLimiter(limits, now);
    return [one, one];
  };

  it('refuses an account past its limit wherever the attempts land, until its window ends', async () => {
    const [a, b] = instances();
    const account = `user-${dialect}@example.test`;
    expect(await attempt(a, { ip: '203.0.113.1', account })).toBe(true);
    expect(await attempt(b, { ip: '203.0.113.2', account })).toBe(true);
    expect(await attempt(a, { ip: '203.0.113.3', account })).toBe(true);
    clock += 20_000;
    expect(await attempt(b, { ip: '203.0.113.4', account })).toBe(40);
    // Another account is counted apart.
    expect(await attempt(b, { ip: '203.0.113.4', account: `other-${dialect}@example.test` })).toBe(true);
    clock += 40_000;
    expect(await attempt(a, { ip: '203.0.113.5', account })).toBe(true);
  });

  it('counts an address over every account it tries; a success clears the account and gives the address its attempt back', async () => {
    const [a, b] = instances();
    const ip = `198.51.100.${dialect === 'postgres' ? 2 : 1}`;
    for (let i = 0; i < 5; i++) expect(await attempt(i % 2 ? a : b, { ip, account: `guess${i}-${dialect}@example.test` })).toBe(true);
    expect(await attempt(a, { ip, account: `guess5-${dialect}@example.test` })).toBe(60);

    const account = `cleared-${dialect}@example.test`;
    for (let i = 0; i < 3; i++) expect(await attempt(b, { ip: `192.0.2.${i}`, account })).toBe(true);
    await a.succeeded({ ip: '192.0.2.2', account });
    expect(await attempt(b, { ip: '192.0.2.9', account })).toBe(true);

    // The address that failed 5 times is full; one success there frees one attempt, once.
    const full = `198.51.100.${dialect === 'postgres' ? 4 : 3}`;
    for (let i = 0; i < 5; i++) expect(await attempt(a, { ip: full, account: `g${i}-${dialect}@example.test` })).toBe(true);
    await b.succeeded({ ip: full, account: `g4-${dialect}@example.test` });
    expect(await attempt(a, { ip: full, account: `late-${dialect}@example.test` })).toBe(true);
    expect(await attempt(b, { ip: full, account: `later-${dialect}@example.test` })).toBe(60);
    // A refund after the window ended takes nothing from the next one.
    clock += 60_000;
    await a.succeeded({ ip: full, account: `late-${dialect}@example.test` });
    for (let i = 0; i < 5; i++) expect(await attempt(b, { ip: full, account: `n${i}-${dialect}@example.test` })).toBe(true);
    expect(await attempt(a, { ip: full, account: `n5-${dialect}@example.test` })).toBe(60);
  });
});
