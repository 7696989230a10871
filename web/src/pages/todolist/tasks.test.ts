import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addTask, editTask, loadTasks, removeTask, saveTasks } from './tasks.ts';

// A Map-backed localStorage, as the browser's.
function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, String(v)),
  };
}

describe('tasks storage', () => {
  beforeEach(() => {
    globalThis.localStorage = memoryStorage();
  });
  afterEach(() => {
    Reflect.deleteProperty(globalThis, 'localStorage');
  });

  it('keeps the list under the key `tasks` as a JSON array of text and times', () => {
    const t0 = new Date('2026-11-22T10:00:00.000Z');
    saveTasks(addTask(addTask([], 'Call Ana', t0), '  ', t0));
    expect(JSON.parse(localStorage.getItem('tasks')!)).toEqual([{ text: 'Call Ana', createdAt: t0.toISOString(), updatedAt: t0.toISOString() }]);
    expect(loadTasks().map((t) => t.text)).toEqual(['Call Ana']);
  });

  it('edits a task (updatedAt moves, createdAt stays) and removes one', () => {
    const t0 = new Date('2026-11-22T10:00:00.000Z');
    const t1 = new Date('2026-11-22T11:00:00.000Z');
    let tasks = addTask(addTask([], 'one', t0), 'two', t0);
    tasks = editTask(tasks, 1, 'two, revised', t1);
    expect(tasks[1]).toEqual({ text: 'two, revised', createdAt: t0.toISOString(), updatedAt: t1.toISOString() });
    expect(editTask(tasks, 0, '   ', t1)).toBe(tasks);
    expect(removeTask(tasks, 0).map((t) => t.text)).toEqual(['two, revised']);
  });

  it('reads an unusable stored value as an empty list', () => {
    localStorage.setItem('tasks', '{"not":"a list"}');
    expect(loadTasks()).toEqual([]);
    localStorage.setItem('tasks', JSON.stringify([{ text: 'ok', createdAt: 'a', updatedAt: 'b' }, { text: 3 }, null]));
    expect(loadTasks().map((t) => t.text)).toEqual(['ok']);
  });
});
