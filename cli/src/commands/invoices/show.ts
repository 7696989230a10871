// How an invoice reads on the terminal: amount in reais, due date, the status of spec/03 §4.
import { formatCents, type Invoice } from '@zapdesk/sync';
import type { CliLanguage } from '../../lang.ts';
import { column } from '../../present.ts';

export const invoiceColumns = (lang: CliLanguage) => [
  column<Invoice>('id', (i) => i.id),
  column<Invoice>('company', (i) => `${i.companyName} (${i.companyId})`),
  column<Invoice>('detail', (i) => i.detail, { drop: 1 }),
  column<Invoice>('value', (i) => formatCents(i.valueCents, lang)),
  column<Invoice>('due', (i) => i.dueDate.slice(0, 10)),
  column<Invoice>('status', (i) => i.status),
];
