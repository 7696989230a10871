// Periods of the dashboard: local calendar days of a time zone turned into UTC instants, since
// every time in the database is UTC. The zone is the request's `timezone`, else the server's (TZ).
import { zonedParts, type DashboardQuery } from '@zapdesk/sync';

export type Period = { from: Date; to: Date; timeZone: string };

export const serverTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const splitDate = (date: string) => date.split('-').map(Number) as [number, number, number];

/** yyyy-MM-dd moved by whole days (calendar arithmetic, no zone involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = splitDate(date);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The local calendar date of an instant in the zone. */
export function localDate(instant: Date, timeZone: string): string {
  const p = zonedParts(instant, timeZone);
  return `${p.year}-${p.month}-${p.day}`;
}

/**
 * The instant the local day begins in the zone. The zone's offset is read at a guess and the
 * guess corrected until it stops moving (two rounds settle any daylight-saving change).
 */
export function startOfLocalDay(date: string, timeZone: string): Date {
  const [y, m, d] = splitDate(date);
  const wall = Date.UTC(y, m - 1, d);
  let guess = wall;
  for (let i = 0; i < 3; i++) {
    const p = zonedParts(new Date(guess), timeZone);
    const seenAsUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
    const next = wall - (seenAsUtc - guess);
    if (next === guess) break;
    guess = next;
  }
  return new Date(guess);
}

/** Local days first..last, both included, as [start of first, start of the day after last). */
export function periodOfDays(first: string, last: string, timeZone: string): Period {
  return { from: startOfLocalDay(first, timeZone), to: startOfLocalDay(addDays(last, 1), timeZone), timeZone };
}

/**
 * GET /dashboard's period. Dates win over `days`: date_from..date_to (a missing end is today, a
 * missing start the first day of the end's month). `days` = N is today and the N days before it.
 * Nothing given: the first day of this month through today (spec/02 §9).
 */
export function resolveDashboardPeriod(q: DashboardQuery, now: Date, timeZone: string): Period {
  const today = localDate(now, timeZone);
  if (q.date_from || q.date_to) {
    const last = q.date_to ?? today;
    return periodOfDays(q.date_from ?? `${last.slice(0, 8)}01`, last, timeZone);
  }
  if (q.days !== undefined) return periodOfDays(addDays(today, -q.days), today, timeZone);
  return periodOfDays(`${today.slice(0, 8)}01`, today, timeZone);
}
