// Business hours: is a schedule list (companies.schedules or queues.schedules, JSON) open at a
// moment? Evaluated in the server's local time zone (set TZ); rules in README.md.

type Day = { weekdayEn?: string; startTime?: string; endTime?: string };

const WEEKDAY = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

export function parseSchedules(json: string | null | undefined): Day[] {
  if (!json) return [];
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as Day[]) : [];
  } catch {
    return [];
  }
}

const minutes = (hhmm: string | undefined) => {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm ?? '');
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
};

/** An empty list never closes; a weekday missing from a non-empty list is closed all day. */
export function isOpenAt(schedules: Day[], now: Date): boolean {
  if (schedules.length === 0) return true;
  const today = schedules.find((d) => d.weekdayEn?.toLowerCase() === WEEKDAY[now.getDay()]);
  const start = minutes(today?.startTime);
  const end = minutes(today?.endTime);
  if (start === undefined || end === undefined || start === end) return false;
  const at = now.getHours() * 60 + now.getMinutes();
  // An end before the start runs past midnight (22:00-02:00).
  return start < end ? at >= start && at < end : at >= start || at < end;
}
