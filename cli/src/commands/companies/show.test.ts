import { describe, expect, it } from 'vitest';
import { dueText } from './show.ts';

describe('dueText', () => {
  const now = new Date('2026-11-28T21:33:00.000Z');
  it('counts calendar days as the web does, whatever the hour of the due date', () => {
    // A date given as a day is kept to its last millisecond: still 4 calendar days ahead, not 5.
    expect(dueText('2026-12-02T23:59:59.999Z', now)).toBe('2026-12-02 (4d left)');
    expect(dueText('2026-12-02T00:00:00.000Z', now)).toBe('2026-12-02 (4d left)');
    expect(dueText('2026-11-28T23:59:59.999Z', now)).toBe('2026-11-28 (due today)');
    expect(dueText('2026-11-24T10:00:00.000Z', now)).toBe('2026-11-24 (4d overdue)');
    expect(dueText(null, now)).toBe('-');
  });
});
