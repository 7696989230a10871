// The queue's menu tree (spec/03 §2): options load one level at a time (GET /queue-options by
// parentId) and are kept here per parent; these pure rules mirror the server's so the tree changes
// at once: a new option takes the next position, a deleted one takes its subtree along and its
// siblings are renumbered 1..n.
import type { QueueOption } from '@zapdesk/sync';

/** Options by parent: the key is the parent's id, or `top` for the first level. */
export type OptionLevels = Record<string, QueueOption[]>;

export const levelKey = (parentId: number | null): string => (parentId === null ? 'top' : String(parentId));

export function sortByPosition(options: readonly QueueOption[]): QueueOption[] {
  return [...options].sort((a, b) => a.option - b.option || a.id - b.id);
}

/** The position a new option under `parentId` gets: one past the last sibling. */
export function nextPosition(levels: OptionLevels, parentId: number | null): number {
  return (levels[levelKey(parentId)] ?? []).reduce((max, o) => Math.max(max, o.option), 0) + 1;
}

/** Adds or replaces one option in its level. */
export function upsertOption(levels: OptionLevels, option: QueueOption): OptionLevels {
  const key = levelKey(option.parentId);
  const siblings = levels[key] ?? [];
  const next = siblings.some((o) => o.id === option.id) ? siblings.map((o) => (o.id === option.id ? option : o)) : [...siblings, option];
  return { ...levels, [key]: sortByPosition(next) };
}

/** Removes an option and every option under it; its siblings are renumbered 1..n in their order. */
export function removeOption(levels: OptionLevels, option: Pick<QueueOption, 'id' | 'parentId'>): OptionLevels {
  const next: OptionLevels = { ...levels };
  const drop = (id: number) => {
    for (const child of next[levelKey(id)] ?? []) drop(child.id);
    delete next[levelKey(id)];
  };
  drop(option.id);
  const key = levelKey(option.parentId);
  next[key] = sortByPosition((next[key] ?? []).filter((o) => o.id !== option.id)).map((o, i) => (o.option === i + 1 ? o : { ...o, option: i + 1 }));
  return next;
}

/** The number a customer types to reach an option, e.g. `2.1` for the first option under option 2. */
export function optionLabel(parentLabel: string | null, option: Pick<QueueOption, 'option'>): string {
  return parentLabel ? `${parentLabel}.${option.option}` : String(option.option);
}
