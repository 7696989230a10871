// The schedules calendar as pure functions of local dates: the weeks of a month view, the days of a
// week view, events bucketed per local day, and the default send time (now + 1 h, spec/02 §9).

/** yyyy-mm-dd of a date in local time, the key events are grouped by. */
export function dayKey(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function addDays(d: Date, n: number): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);
}

/** The first day of the week holding `d` (weeks start on Sunday, as the spec's calendar). */
export function startOfWeek(d: Date, weekStartsOn = 0): Date {
  return addDays(d, -((d.getDay() - weekStartsOn + 7) % 7));
}

/** The 7 days of the week holding `d`. */
export function weekDays(d: Date, weekStartsOn = 0): Date[] {
  const start = startOfWeek(d, weekStartsOn);
  return Array.from({ length: 7 }, (_, i) => addDays(start, i));
}

/** Whole weeks covering the month of `d`: 4 to 6 rows of 7 days, padded with the neighbours' days. */
export function monthGrid(d: Date, weekStartsOn = 0): Date[][] {
  const first = new Date(d.getFullYear(), d.getMonth(), 1);
  const last = new Date(d.getFullYear(), d.getMonth() + 1, 0);
  const weeks: Date[][] = [];
  for (let start = startOfWeek(first, weekStartsOn); start <= last; start = addDays(start, 7)) weeks.push(weekDays(start, weekStartsOn));
  return weeks;
}

/** Moves the view by a month or a week (the month keeps day 1, so 31 Jan + 1 month is February). */
export function shiftView(d: Date, view: 'month' | 'week', step: number): Date {
  return view === 'month' ? new Date(d.getFullYear(), d.getMonth() + step, 1) : addDays(d, 7 * step);
}

/** Events by local day, each day's events in time order. */
export function groupByDay<E extends { sendAt: string }>(events: readonly E[]): Map<string, E[]> {
  const days = new Map<string, E[]>();
  for (const e of [...events].sort((a, b) => Date.parse(a.sendAt) - Date.parse(b.sendAt))) {
    const key = dayKey(new Date(e.sendAt));
    const list = days.get(key);
    if (list) list.push(e);
    else days.set(key, [e]);
  }
  return days;
}

/** A local date-time as a datetime-local input writes it: YYYY-MM-DDTHH:mm. */
export function toLocalInput(d: Date): string {
  return `${dayKey(d)}T${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** The default send time of a new schedule: an hour from now (spec/02 §9). */
export function defaultSendAt(now: Date = new Date()): string {
  return toLocalInput(new Date(now.getTime() + 3600_000));
}

/** A datetime-local value read in the browser's zone, as the ISO instant the API takes; '' stays ''. */
export function localInputToIso(value: string): string {
  if (!value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toISOString();
}
