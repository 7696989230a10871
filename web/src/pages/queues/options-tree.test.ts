import { describe, expect, it } from 'vitest';
import type { QueueOption } from '@zapdesk/sync';
import { levelKey, nextPosition, optionLabel, removeOption, upsertOption, type OptionLevels } from './options-tree.ts';

const opt = (id: number, option: number, parentId: number | null = null): QueueOption => ({
  id,
  queueId: 1,
  parentId,
  title: `Option ${id}`,
  message: null,
  option,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
});

const tree = (): OptionLevels => ({
  top: [opt(1, 1), opt(2, 2), opt(3, 3)],
  '2': [opt(20, 1, 2), opt(21, 2, 2)],
  '21': [opt(210, 1, 21)],
});

describe('queue options tree', () => {
  it('gives a new option the position after its last sibling, 1 on an empty level', () => {
    expect(nextPosition(tree(), null)).toBe(4);
    expect(nextPosition(tree(), 2)).toBe(3);
    expect(nextPosition(tree(), 1)).toBe(1);
  });

  it('renumbers the remaining siblings 1..n after a delete, keeping their order', () => {
    const after = removeOption(tree(), { id: 1, parentId: null });
    expect(after.top!.map((o) => [o.id, o.option])).toEqual([
      [2, 1],
      [3, 2],
    ]);
  });

  it('takes the subtree of a deleted option along and leaves other levels alone', () => {
    const after = removeOption(tree(), { id: 2, parentId: null });
    expect(after['2']).toBeUndefined();
    expect(after['21']).toBeUndefined();
    expect(after.top!.map((o) => o.option)).toEqual([1, 2]);
    const nested = removeOption(tree(), { id: 20, parentId: 2 });
    expect(nested['2']!.map((o) => [o.id, o.option])).toEqual([[21, 1]]);
    expect(nested['21']).toHaveLength(1);
    expect(nested.top).toHaveLength(3);
  });

  it('adds or replaces an option in its own level, sorted by position', () => {
    const added = upsertOption(tree(), opt(22, 3, 2));
    expect(added['2']!.map((o) => o.id)).toEqual([20, 21, 22]);
    const renamed = upsertOption(tree(), { ...opt(1, 1), title: 'Sales' });
    expect(renamed.top!.find((o) => o.id === 1)?.title).toBe('Sales');
    expect(renamed.top).toHaveLength(3);
    expect(upsertOption({}, opt(5, 1, 9))[levelKey(9)]).toHaveLength(1);
  });

  it('labels options by the numbers a customer types', () => {
    expect(optionLabel(null, { option: 2 })).toBe('2');
    expect(optionLabel('2', { option: 1 })).toBe('2.1');
    expect(optionLabel('2.1', { option: 3 })).toBe('2.1.3');
  });
});
