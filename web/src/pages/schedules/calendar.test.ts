import { describe, expect, it } from 'vitest';
import { dayKey, defaultSendAt, groupByDay, localInputToIso, monthGrid, shiftView, toLocalInput, weekDays } from './calendar.ts';

const keys = (days: Date[]) => days.map(dayKey);

describe('monthGrid', () => {
  it('covers the month in whole weeks starting on Sunday, padded with the neighbouring days', () => {
    // November 2026 starts on a Sunday and ends on a Monday: 5 rows.
    const weeks = monthGrid(new Date(2026, 10, 22));
    expect(weeks).toHaveLength(5);
    expect(weeks.every((w) => w.length === 7 && w[0]!.getDay() === 0)).toBe(true);
    expect(dayKey(weeks[0]![0]!)).toBe('2026-11-01');
    expect(dayKey(weeks[4]![6]!)).toBe('2026-12-05');
  });

  it('takes six rows when the month spans them, and four for a February that fits', () => {
    expect(monthGrid(new Date(2026, 7, 1))).toHaveLength(6); // August 2026: Saturday 1st, 31 days
    expect(monthGrid(new Date(2015, 1, 10))).toHaveLength(4); // February 2015: Sunday 1st, 28 days
    expect(dayKey(monthGrid(new Date(2026, 7, 1))[0]![0]!)).toBe('2026-07-26');
  });
});

describe('weekDays and shiftView', () => {
  it('gives the Sunday-to-Saturday week of a day', () => {
    expect(keys(weekDays(new Date(2026, 10, 25)))).toEqual(['2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28']);
  });

  it('moves by months from day 1 and by weeks of 7 days', () => {
    expect(dayKey(shiftView(new Date(2026, 0, 31), 'month', 1))).toBe('2026-02-01');
    expect(dayKey(shiftView(new Date(2026, 0, 31), 'month', -1))).toBe('2025-12-01');
    expect(dayKey(shiftView(new Date(2026, 11, 29), 'week', 1))).toBe('2027-01-05');
  });
});

describe('groupByDay', () => {
  it('buckets events per local day in time order', () => {
    const at = (y: number, m: number, d: number, h: number) => new Date(y, m, d, h).toISOString();
    const events = [
      { id: 1, sendAt: at(2026, 10, 23, 15) },
      { id: 2, sendAt: at(2026, 10, 23, 9) },
      { id: 3, sendAt: at(2026, 10, 24, 0) },
    ];
    const days = groupByDay(events);
    expect(days.get('2026-11-23')?.map((e) => e.id)).toEqual([2, 1]);
    expect(days.get('2026-11-24')?.map((e) => e.id)).toEqual([3]);
    expect(days.size).toBe(2);
  });
});

describe('send time', () => {
  it('defaults to an hour from now as YYYY-MM-DDTHH:mm', () => {
    expect(defaultSendAt(new Date(2026, 10, 22, 23, 30))).toBe('2026-11-23T00:30');
  });

  it('turns the datetime-local value into the instant the API takes, with its zone', () => {
    const local = new Date(2026, 10, 22, 14, 5);
    expect(toLocalInput(local)).toBe('2026-11-22T14:05');
    expect(localInputToIso('2026-11-22T14:05')).toBe(local.toISOString());
    expect(localInputToIso('')).toBe('');
  });
});
