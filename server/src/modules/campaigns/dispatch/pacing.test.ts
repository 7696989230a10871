// The pacing arithmetic with a fake clock and fake dice: seconds in, milliseconds only inside.
import { describe, expect, it } from 'vitest';
import { CAMPAIGN_SETTINGS_DEFAULTS, type CampaignSettings } from '@zapdesk/sync';
import { decidePacing, msUntilWindow, type PacingState } from './pacing.ts';

const fresh: PacingState = { nextAt: null, runCount: 0, hourStart: null, hourCount: 0, dayStart: null, dayCount: 0 };
const T0 = Date.parse('2026-11-27T12:00:00.000Z');

/** Sends as fast as the pacing allows from T0, for `ms`; answers the send times in seconds after T0. */
function simulate(settings: CampaignSettings, ms: number, random: () => number = Math.random): number[] {
  let state = fresh;
  const at: number[] = [];
  let now = T0;
  while (now <= T0 + ms) {
    const d = decidePacing(settings, state, new Date(now), { timeZone: 'UTC', random });
    if (d.kind === 'send') {
      at.push((now - T0) / 1000);
      state = d.next;
    } else now = d.until.getTime();
  }
  return at;
}

describe('campaign pacing', () => {
  it('counts sends towards the longer pause only while one is set: turning it on counts from then', () => {
    const off = { ...CAMPAIGN_SETTINGS_DEFAULTS, messageInterval: 1, messageJitter: 0, longerIntervalAfter: 0, hourlyLimit: 0, dailyLimit: 0 };
    let state = fresh;
    for (let i = 0; i < 50; i++) {
      const d = decidePacing(off, state, new Date(T0 + i * 1000), { timeZone: 'UTC' });
      if (d.kind !== 'send') throw new Error('expected a send');
      state = d.next;
    }
    expect(state.runCount).toBe(0);
    const on = { ...off, longerIntervalAfter: 3, greaterInterval: 10 };
    const gaps: number[] = [];
    for (let i = 0; i < 6; i++) {
      const d = decidePacing(on, state, new Date(T0 + 60_000 + i * 20_000), { timeZone: 'UTC' });
      if (d.kind !== 'send') throw new Error('expected a send');
      gaps.push(d.gapSeconds);
      state = d.next;
    }
    expect(gaps).toEqual([1, 1, 10, 1, 1, 10]);
  });

  it('uses the defaults of spec/03 §9 in seconds: 20 s apart, 60 s after every 20th send', () => {
    const s = { ...CAMPAIGN_SETTINGS_DEFAULTS, messageJitter: 0 };
    const at = simulate(s, 30 * 60_000);
    const gaps = at.slice(1).map((x, i) => x - at[i]!);
    expect(gaps.slice(0, 19)).toEqual(Array(19).fill(20));
    expect(gaps[19]).toBe(60);
    expect(gaps[20]).toBe(20);
    expect(gaps[39]).toBe(60);
  });

  it('jitters each gap within messageInterval ± messageJitter, never twice the same', () => {
    const s = { ...CAMPAIGN_SETTINGS_DEFAULTS, messageInterval: 10, messageJitter: 3, longerIntervalAfter: 0, hourlyLimit: 0, dailyLimit: 0 };
    const at = simulate(s, 60 * 60_000);
    const gaps = at.slice(1).map((x, i) => x - at[i]!);
    expect(gaps.length).toBeGreaterThan(300);
    for (const g of gaps) expect(g >= 7 && g <= 13).toBe(true);
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    expect(mean).toBeGreaterThan(9.5);
    expect(mean).toBeLessThan(10.5);
    expect(new Set(gaps).size).toBeGreaterThan(gaps.length / 2);
    // The jitter never exceeds the interval: 0 stays 0.
    const burst = simulate({ ...s, messageInterval: 0, messageJitter: 5, hourlyLimit: 3 }, 1000);
    expect(burst).toEqual([0, 0, 0]);
  });

  it('caps sends per hour and per day', () => {
    const s = { ...CAMPAIGN_SETTINGS_DEFAULTS, messageInterval: 0, messageJitter: 0, longerIntervalAfter: 0, hourlyLimit: 4, dailyLimit: 10 };
    const at = simulate(s, 25.5 * 3600_000);
    expect(at).toEqual([0, 0, 0, 0, 3600, 3600, 3600, 3600, 7200, 7200, 86400, 86400, 86400, 86400, 90000, 90000, 90000, 90000]);
  });

  it('sends only inside the window, which may wrap midnight', () => {
    const day = { sendWindowStart: '08:00', sendWindowEnd: '20:00' };
    expect(msUntilWindow(day, new Date('2026-11-27T12:00:00Z'), 'UTC')).toBe(0);
    expect(msUntilWindow(day, new Date('2026-11-27T21:30:00Z'), 'UTC')).toBe(10.5 * 3600_000);
    expect(msUntilWindow(day, new Date('2026-11-27T07:59:30Z'), 'UTC')).toBe(30_000);
    // São Paulo is UTC-3: 12:00 UTC is 09:00 there.
    expect(msUntilWindow({ sendWindowStart: '10:00', sendWindowEnd: '18:00' }, new Date('2026-11-27T12:00:00Z'), 'America/Sao_Paulo')).toBe(3600_000);
    const night = { sendWindowStart: '22:00', sendWindowEnd: '02:00' };
    expect(msUntilWindow(night, new Date('2026-11-27T23:00:00Z'), 'UTC')).toBe(0);
    expect(msUntilWindow(night, new Date('2026-11-27T01:59:00Z'), 'UTC')).toBe(0);
    expect(msUntilWindow(night, new Date('2026-11-27T02:00:00Z'), 'UTC')).toBe(20 * 3600_000);
    const s = { ...CAMPAIGN_SETTINGS_DEFAULTS, ...day, messageInterval: 3600, messageJitter: 0, longerIntervalAfter: 0, hourlyLimit: 0, dailyLimit: 0 };
    // From 12:00: 12..19 h, then 08:00 next day.
    expect(simulate(s, 20.5 * 3600_000).map((x) => x / 3600)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 20]);
  });
});
