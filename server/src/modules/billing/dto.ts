// Invoice rows → the wire `Invoice` (sync/src/domain/invoice.ts): cents beside reais, and the
// status read at the moment of asking (expired is not stored, spec/03 §4).
import { centsToReais, invoiceStatusOf, type Invoice } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Invoices } from '../../db/schema.ts';

export type InvoiceRow = Selectable<Invoices> & { companyName: string };

export function toInvoiceDto(row: InvoiceRow, now: Date = new Date()): Invoice {
  return {
    id: row.id,
    companyId: row.companyId,
    companyName: row.companyName,
    detail: row.detail,
    value: centsToReais(row.valueCents),
    valueCents: row.valueCents,
    dueDate: row.dueDate,
    status: invoiceStatusOf(row.status, row.dueDate, now),
    paidAt: row.paidAt,
    createdAt: row.createdAt,
  };
}
