// The personal to-do list of spec/02 §3: kept only in this browser, under local storage `tasks`, as
// the original app stored it (a JSON array of { text, createdAt, updatedAt }). Anything else found
// under the key reads as an empty list rather than breaking the page.
import { readStoredJson, writeStoredJson } from '../../session/storage.ts';

export type Task = { text: string; createdAt: string; updatedAt: string };

function isTask(v: unknown): v is Task {
  const t = v as Task;
  return typeof v === 'object' && v !== null && typeof t.text === 'string' && typeof t.createdAt === 'string' && typeof t.updatedAt === 'string';
}

export function loadTasks(): Task[] {
  const stored = readStoredJson<unknown>('tasks');
  return Array.isArray(stored) ? stored.filter(isTask) : [];
}

export function saveTasks(tasks: Task[]): void {
  writeStoredJson('tasks', tasks);
}

/** A blank text adds nothing. */
export function addTask(tasks: Task[], text: string, now: Date = new Date()): Task[] {
  const clean = text.trim();
  if (!clean) return tasks;
  const at = now.toISOString();
  return [...tasks, { text: clean, createdAt: at, updatedAt: at }];
}

/** A blank text leaves the task as it was. */
export function editTask(tasks: Task[], index: number, text: string, now: Date = new Date()): Task[] {
  const clean = text.trim();
  if (!clean || !tasks[index]) return tasks;
  return tasks.map((t, i) => (i === index ? { ...t, text: clean, updatedAt: now.toISOString() } : t));
}

export function removeTask(tasks: Task[], index: number): Task[] {
  return tasks.filter((_, i) => i !== index);
}
