// Announcement priority colours (spec/02 §3, §9): 1 high/red, 2 medium/orange, 3 low/grey.
import { ANNOUNCEMENT_PRIORITY_COLORS } from '@zapdesk/sync';

const CLASSES = {
  red: 'bg-red-500',
  orange: 'bg-orange-500',
  grey: 'bg-slate-400',
} as const;

/** The dot colour of a priority; an unknown priority reads as low. */
export function priorityDot(priority: number): string {
  const color = ANNOUNCEMENT_PRIORITY_COLORS[priority as 1 | 2 | 3] ?? ANNOUNCEMENT_PRIORITY_COLORS[3];
  return CLASSES[color];
}

/** Sorted as the popover and the list show them: highest priority first, then newest. */
export function sortAnnouncements<A extends { priority: number; createdAt: string; id: number }>(list: readonly A[]): A[] {
  return [...list].sort((a, b) => a.priority - b.priority || b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
}

/** Only pictures may be attached (spec/02 §5). */
export function isAllowedPicture(file: { name: string; type: string }): boolean {
  return /^image\/(png|jpe?g)$/.test(file.type) || /\.(png|jpe?g)$/i.test(file.name);
}
