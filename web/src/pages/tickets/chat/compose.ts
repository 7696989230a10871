// Composing rules: quick answers on a leading slash (more than 1 character, spec/02 §5; labels cut
// at 35 characters, §9), and the local id of an optimistic message.
import type { QuickMessage } from '@zapdesk/sync';

/** What the quick answers read of a synced quick message. */
export type QuickAnswer = Pick<QuickMessage, 'shortcode' | 'status' | 'geral' | 'userId'>;

export const QUICK_LABEL_MAX = 35;

/** The user's active quick answers (their own or shared) whose shortcode contains what follows "/". */
export function matchQuickAnswers<Q extends QuickAnswer>(text: string, all: readonly Q[], userId: number): Q[] {
  if (!text.startsWith('/') || text.length < 2 || text.includes('\n')) return [];
  const term = text.slice(1).toLowerCase();
  return all
    .filter((q) => q.status && (q.geral || q.userId === userId || q.userId === null) && q.shortcode.toLowerCase().includes(term))
    .sort((a, b) => a.shortcode.localeCompare(b.shortcode))
    .slice(0, 20);
}

export function quickLabel(message: string): string {
  return message.length > QUICK_LABEL_MAX ? `${message.slice(0, QUICK_LABEL_MAX)}…` : message;
}

/** 16 random hex characters (crypto.randomUUID needs a secure context; getRandomValues does not). */
export function newLocalId(): string {
  return [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, '0')).join('');
}
