// Small formatting rules of the forms and tables, kept pure so they are unit-tested.
import { daysToDue, formatCents, reaisToCents, RECURRENCES } from '@zapdesk/sync';

/** The sign-up phone mask (99) 99999-9999 (spec/01 §5): at most 11 digits, formatted as typed. */
export function maskPhone(input: string): string {
  const d = input.replace(/\D/g, '').slice(0, 11);
  if (d.length === 0) return '';
  if (d.length <= 2) return `(${d}`;
  const area = `(${d.slice(0, 2)}) `;
  const rest = d.slice(2);
  // Ten digits is a landline (9999-9999); eleven a mobile (99999-9999).
  const split = d.length === 11 ? 5 : 4;
  return rest.length <= split ? area + rest : `${area}${rest.slice(0, split)}-${rest.slice(split)}`;
}

const LOCALES: Record<string, string> = { en: 'en-GB', pt: 'pt-BR', es: 'es-ES' };

/** dd/mm/yyyy in every language of the product (the spec's date format), from an ISO string. */
export function formatDate(iso: string | null | undefined, language: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(LOCALES[language] ?? 'en-GB', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(d);
}

// The detail the invoice job writes: plan · recurrence · period ("Pro · MENSAL · 2026-12-08 – 2027-01-08").
const GENERATED_DETAIL = new RegExp(`^(.*) · (${RECURRENCES.join('|')}) · (\\d{4}-\\d{2}-\\d{2}) – (\\d{4}-\\d{2}-\\d{2})$`);

/**
 * An invoice's detail in the reader's words: the job's own (plan, recurrence code, ISO period) with
 * the recurrence named and the dates as dd/mm/yyyy; any other text (a detail written by hand) as it is.
 */
export function invoiceDetailText(detail: string, language: string, recurrenceName: (code: string) => string): string {
  const m = GENERATED_DETAIL.exec(detail);
  if (!m) return detail;
  return `${m[1]} · ${recurrenceName(m[2]!)} · ${formatDate(m[3], language)} – ${formatDate(m[4], language)}`;
}

/** Money is shown in Brazilian reais with 2 decimals (spec/01 §1): formatCents of sync/money.ts. */
export function formatMoney(reais: number, language: string): string {
  return formatCents(reaisToCents(reais), language);
}

export { daysToDue, formatCents };

export type DueTone = 'yellow' | 'orange' | 'red' | null;

/** Company row colours by days to due date (spec/01 §4): exactly 5 yellow, -3 to 4 orange, exactly -4 red. */
export function dueDateTone(days: number | null): DueTone {
  if (days === null) return null;
  if (days === 5) return 'yellow';
  if (days >= -3 && days <= 4) return 'orange';
  if (days === -4) return 'red';
  return null;
}
