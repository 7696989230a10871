import { describe, expect, it } from 'vitest';
import { chartRange, dashboardQuery, defaultFilter, filterIsBackwards, filterIsSet, formatMinutes, ratingStars, scaleBars } from './dashboard-format.ts';

const today = new Date(2026, 10, 22, 15, 30);

describe('dashboard filter', () => {
  it('defaults to the first day of the month through today', () => {
    expect(defaultFilter(today)).toEqual({ mode: 'date', from: '2026-11-01', to: '2026-11-22' });
  });

  it('needs a filter: no dates, or no period chosen, is not set', () => {
    expect(filterIsSet({ mode: 'date', from: '', to: '' })).toBe(false);
    expect(filterIsSet({ mode: 'period', days: null })).toBe(false);
    expect(filterIsSet({ mode: 'period', days: 0 })).toBe(true);
    expect(filterIsSet({ mode: 'date', from: '2026-11-01', to: '' })).toBe(true);
    expect(filterIsBackwards({ mode: 'date', from: '2026-11-05', to: '2026-11-01' })).toBe(true);
  });

  it('sends dates or days with the browser zone', () => {
    expect(dashboardQuery({ mode: 'date', from: '2026-11-01', to: '2026-11-22' }, 'America/Sao_Paulo')).toEqual({ date_from: '2026-11-01', date_to: '2026-11-22', timezone: 'America/Sao_Paulo' });
    expect(dashboardQuery({ mode: 'period', days: 7 }, 'UTC')).toEqual({ days: 7, timezone: 'UTC' });
  });

  it('gives the charts the same days', () => {
    expect(chartRange({ mode: 'period', days: 7 }, today)).toEqual({ initialDate: '2026-11-15', finalDate: '2026-11-22' });
    expect(chartRange({ mode: 'period', days: 0 }, today)).toEqual({ initialDate: '2026-11-22', finalDate: '2026-11-22' });
    expect(chartRange({ mode: 'date', from: '', to: '2026-10-10' }, today)).toEqual({ initialDate: '2026-10-01', finalDate: '2026-10-10' });
  });
});

describe('dashboard formatting', () => {
  it('reads minutes as hours and minutes', () => {
    expect(formatMinutes(0)).toBe('0m');
    expect(formatMinutes(0.5)).toBe('30s');
    expect(formatMinutes(12.4)).toBe('12m');
    expect(formatMinutes(125)).toBe('2h 05m');
  });

  it('rounds a rating to whole stars of 3 with its level', () => {
    expect(ratingStars(0)).toEqual({ filled: 0, labelKey: null });
    expect(ratingStars(2.6)).toEqual({ filled: 3, labelKey: 'dashboard.rating.verySatisfied' });
    expect(ratingStars(1.2).filled).toBe(1);
    expect(ratingStars(9).filled).toBe(3);
  });

  it('scales bars to a round axis top', () => {
    const { top, ratio } = scaleBars([
      { label: 'a', value: 7 },
      { label: 'b', value: 3 },
    ]);
    expect(top).toBe(7);
    expect(ratio(7)).toBe(1);
    expect(scaleBars([{ label: 'a', value: 23 }]).top).toBe(30);
    expect(scaleBars([]).ratio(5)).toBe(0);
  });
});
