// The dashboard's rules (spec/02 §2.11, §9), pure so they are unit-tested: the filter (by date or
// by period), the query it sends, the charts' range, and how minutes and ratings read.

export const PERIOD_PRESETS = [0, 3, 7, 15, 30, 60, 90] as const;

export type DashboardFilter = { mode: 'date'; from: string; to: string } | { mode: 'period'; days: number | null };

/** yyyy-MM-dd of a local date. */
export function isoDay(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The default: from the first day of this month to today. */
export function defaultFilter(today: Date): DashboardFilter {
  return { mode: 'date', from: isoDay(new Date(today.getFullYear(), today.getMonth(), 1)), to: isoDay(today) };
}

/** Whether the filter names a period; without one the page shows selectFilterError instead of asking. */
export function filterIsSet(f: DashboardFilter): boolean {
  return f.mode === 'period' ? f.days !== null : f.from !== '' || f.to !== '';
}

/** A date range that runs backwards. */
export function filterIsBackwards(f: DashboardFilter): boolean {
  return f.mode === 'date' && f.from !== '' && f.to !== '' && f.from > f.to;
}

/** GET /dashboard's query for the filter. */
export function dashboardQuery(f: DashboardFilter, timezone: string): Record<string, string | number> {
  if (f.mode === 'period') return { days: f.days ?? 0, timezone };
  return { ...(f.from ? { date_from: f.from } : {}), ...(f.to ? { date_to: f.to } : {}), timezone };
}

/** The days the two charts cover: the filter's, with an open end read as the server reads it. */
export function chartRange(f: DashboardFilter, today: Date): { initialDate: string; finalDate: string } {
  const finalDate = f.mode === 'date' && f.to ? f.to : isoDay(today);
  if (f.mode === 'period') {
    const start = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (f.days ?? 0));
    return { initialDate: isoDay(start), finalDate };
  }
  return { initialDate: f.from || `${finalDate.slice(0, 8)}01`, finalDate };
}

/** Minutes as "2h 05m", "12m" or "45s" under a minute; 0 reads "0m". */
export function formatMinutes(minutes: number): string {
  if (!Number.isFinite(minutes) || minutes <= 0) return '0m';
  if (minutes < 1) return `${Math.round(minutes * 60)}s`;
  const total = Math.round(minutes);
  const h = Math.floor(total / 60);
  const m = total % 60;
  return h > 0 ? `${h}h ${String(m).padStart(2, '0')}m` : `${m}m`;
}

/** Rating 0..3 as stars filled (rounded to the nearest whole star) and the label key of that level. */
export function ratingStars(rating: number): { filled: number; labelKey: string | null } {
  const filled = Math.max(0, Math.min(3, Math.round(rating)));
  const labels = [null, 'dashboard.rating.unsatisfied', 'dashboard.rating.satisfied', 'dashboard.rating.verySatisfied'];
  return { filled, labelKey: labels[filled] ?? null };
}

export type Bar = { label: string; value: number };

/** Bars scaled to the tallest; an axis top rounded up to a readable step. */
export function scaleBars(bars: readonly Bar[]): { top: number; ratio: (value: number) => number } {
  const max = bars.reduce((m, b) => Math.max(m, b.value), 0);
  if (max <= 0) return { top: 1, ratio: () => 0 };
  const step = 10 ** Math.floor(Math.log10(max));
  const top = Math.ceil(max / step) * step;
  return { top, ratio: (value) => value / top };
}
