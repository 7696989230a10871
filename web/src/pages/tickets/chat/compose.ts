// Composing rules: quick answers on a leading slash (more than 1 character, spec/02 §5; labels cut
// at 35 characters, §9) with their template variables filled in for the ticket, and the local id
// of an optimistic message.
import { buildTemplateVars, renderTemplate, type QuickMessage, type Ticket } from '@zapdesk/sync';

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

/**
 * A quick answer's text for this ticket: its variables ({{name}}, {{firstName}}, {{ms}}, {{protocol}},
 * {{date}}, {{hour}}, {{queue}}, {{connection}}, or the campaign style {nome}) filled in by the one
 * renderer of @zapdesk/sync, in the browser's time zone and the interface's language, before the
 * agent sends (or edits) it.
 */
export function fillQuickAnswer(message: string, ticket: Pick<Ticket, 'id' | 'contact' | 'queue' | 'whatsapp'>, language: string, now = new Date()): string {
  const lang = language.startsWith('pt') ? 'pt' : language.startsWith('es') ? 'es' : 'en';
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const vars = buildTemplateVars({ contact: ticket.contact, ticketId: ticket.id, queue: ticket.queue?.name, connection: ticket.whatsapp?.name, now, timeZone, lang });
  return renderTemplate(message, vars);
}
