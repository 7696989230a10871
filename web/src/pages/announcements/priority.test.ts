import { describe, expect, it } from 'vitest';
import { isAllowedPicture, priorityDot, sortAnnouncements } from './priority.ts';

describe('announcement priority', () => {
  it('colours 1 red, 2 orange, 3 and anything else grey', () => {
    expect(priorityDot(1)).toBe('bg-red-500');
    expect(priorityDot(2)).toBe('bg-orange-500');
    expect(priorityDot(3)).toBe('bg-slate-400');
    expect(priorityDot(7)).toBe('bg-slate-400');
  });

  it('lists high priority first, then the newest', () => {
    const list = [
      { id: 1, priority: 3, createdAt: '2026-11-02T00:00:00Z' },
      { id: 2, priority: 1, createdAt: '2026-11-01T00:00:00Z' },
      { id: 3, priority: 3, createdAt: '2026-11-03T00:00:00Z' },
    ];
    expect(sortAnnouncements(list).map((a) => a.id)).toEqual([2, 3, 1]);
  });

  it('accepts png and jpeg pictures only', () => {
    expect(isAllowedPicture({ name: 'a.PNG', type: '' })).toBe(true);
    expect(isAllowedPicture({ name: 'photo', type: 'image/jpeg' })).toBe(true);
    expect(isAllowedPicture({ name: 'doc.pdf', type: 'application/pdf' })).toBe(false);
  });
});
