// The pacing of one connection, decided at claim time (DESIGN §13) from the state stored in
// campaign_pacing, so it survives restarts and every campaign on the connection shares it. Pure:
// the clock and the dice are arguments, so a test drives it with a fake clock.
//
// Seconds everywhere (settings), milliseconds only inside this file's Date arithmetic:
// - after a send the next one may be claimed `messageInterval ± messageJitter` seconds later (the
//   jitter uniform, capped at messageInterval so a gap is never negative), so no two gaps are equal;
// - every `longerIntervalAfter`-th send is followed by `greaterInterval` seconds instead (the longer
//   pause replaces the normal gap; 0 turns it off);
// - at most `hourlyLimit` sends in an hour and `dailyLimit` in a day, counted in windows that open at
//   the first send after the previous window closed (0: no cap);
// - with a sending window (HH:MM to HH:MM in timeZone; may wrap midnight), nothing leaves outside it.
import { zonedParts, type CampaignSettings } from '@zapdesk/sync';

export type PacingState = { nextAt: string | null; runCount: number; hourStart: string | null; hourCount: number; dayStart: string | null; dayCount: number };

export type PacingDecision =
  | { kind: 'send'; next: PacingState; gapSeconds: number }
  | { kind: 'wait'; until: Date; why: 'interval' | 'window' | 'hourly' | 'daily' };

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** How long until the window opens (0 when `now` is inside it, or when there is no window). */
export function msUntilWindow(settings: Pick<CampaignSettings, 'sendWindowStart' | 'sendWindowEnd'>, now: Date, timeZone: string): number {
  const { sendWindowStart: start, sendWindowEnd: end } = settings;
  if (!start || !end || start === end) return 0;
  const p = zonedParts(now, timeZone);
  const minute = Number(p.hour) * 60 + Number(p.minute);
  const s = minutesOf(start);
  const e = minutesOf(end);
  const inside = s < e ? minute >= s && minute < e : minute >= s || minute < e;
  if (inside) return 0;
  const minutes = (s - minute + 1440) % 1440;
  return Math.max(1000, minutes * 60_000 - Number(p.second) * 1000 - now.getMilliseconds());
}

export function decidePacing(settings: CampaignSettings, state: PacingState, now: Date, opts: { timeZone: string; random?: () => number }): PacingDecision {
  const t = now.getTime();
  if (state.nextAt !== null && Date.parse(state.nextAt) > t) return { kind: 'wait', until: new Date(state.nextAt), why: 'interval' };
  const toWindow = msUntilWindow(settings, now, opts.timeZone);
  if (toWindow > 0) return { kind: 'wait', until: new Date(t + toWindow), why: 'window' };

  let { hourStart, hourCount, dayStart, dayCount } = state;
  if (hourStart === null || Date.parse(hourStart) + HOUR_MS <= t) [hourStart, hourCount] = [now.toISOString(), 0];
  if (dayStart === null || Date.parse(dayStart) + DAY_MS <= t) [dayStart, dayCount] = [now.toISOString(), 0];
  if (settings.dailyLimit > 0 && dayCount >= settings.dailyLimit) return { kind: 'wait', until: new Date(Date.parse(dayStart) + DAY_MS), why: 'daily' };
  if (settings.hourlyLimit > 0 && hourCount >= settings.hourlyLimit) return { kind: 'wait', until: new Date(Date.parse(hourStart) + HOUR_MS), why: 'hourly' };

  // Sends since the last longer pause; with no longer pause set it stays 0, so turning one on
  // counts from then.
  let runCount = settings.longerIntervalAfter > 0 ? state.runCount + 1 : 0;
  let gapSeconds: number;
  if (settings.longerIntervalAfter > 0 && runCount >= settings.longerIntervalAfter) {
    gapSeconds = settings.greaterInterval;
    runCount = 0;
  } else {
    const jitter = Math.min(settings.messageJitter, settings.messageInterval);
    const random = opts.random ?? Math.random;
    gapSeconds = Math.max(0, settings.messageInterval + (random() * 2 - 1) * jitter);
  }
  return {
    kind: 'send',
    gapSeconds,
    next: { nextAt: new Date(t + Math.round(gapSeconds * 1000)).toISOString(), runCount, hourStart, hourCount: hourCount + 1, dayStart, dayCount: dayCount + 1 },
  };
}
