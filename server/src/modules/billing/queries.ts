// Data functions of invoices: the database handle first, then whose invoices. A company's reads go
// through the company filter (db/tenant.ts); only the super-admin's scope (`'all'`) reads across
// companies, and the payment confirmation finds an invoice by its txid before it knows the company.
import { PAGE_SIZE, type InvoiceQuery, type InvoicesPage } from '@zapdesk/sync';
import type { Database } from '../../db/database.ts';
import { likeFolded } from '../../db/like.ts';
import { tenant } from '../../db/tenant.ts';
import { toInvoiceDto, type InvoiceRow } from './dto.ts';

/** A company's invoices, or every company's for the super-admin. */
export type InvoiceScope = number | 'all';

function selectInvoices(db: Database, scope: InvoiceScope) {
  const from = scope === 'all' ? db.selectFrom('invoices') : tenant(db, scope).selectFrom('invoices');
  return from.innerJoin('companies', 'companies.id', 'invoices.companyId').selectAll('invoices').select('companies.name as companyName');
}

/** Newest due date first; search over the detail and, for the super-admin, the company name. */
export async function findInvoicesPage(db: Database, scope: InvoiceScope, query: InvoiceQuery, now = new Date()): Promise<InvoicesPage> {
  let q = selectInvoices(db, scope);
  if (scope === 'all' && query.companyId) q = q.where('invoices.companyId', '=', query.companyId);
  if (query.searchParam) {
    const s = query.searchParam;
    q = q.where((eb) => (scope === 'all' ? eb.or([likeFolded(eb.ref('invoices.detail'), s), likeFolded(eb.ref('companies.name'), s)]) : likeFolded(eb.ref('invoices.detail'), s)));
  }
  const today = `${now.toISOString().slice(0, 10)}T00:00:00.000Z`;
  if (query.status === 'paid') q = q.where('invoices.status', '=', 'paid');
  if (query.status === 'open') q = q.where('invoices.status', '<>', 'paid').where('invoices.dueDate', '>=', today);
  if (query.status === 'expired') q = q.where('invoices.status', '<>', 'paid').where('invoices.dueDate', '<', today);
  const rows = await q
    .orderBy('invoices.dueDate', 'desc')
    .orderBy('invoices.id', 'desc')
    .limit(PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * PAGE_SIZE)
    .execute();
  return { list: rows.slice(0, PAGE_SIZE).map((r) => toInvoiceDto(r, now)), hasMore: rows.length > PAGE_SIZE };
}

export async function findInvoiceRow(db: Database, scope: InvoiceScope, id: number): Promise<InvoiceRow | undefined> {
  return selectInvoices(db, scope).where('invoices.id', '=', id).executeTakeFirst();
}

/** The invoice a provider's txid names, whichever company it belongs to (webhooks carry no tenant). */
export async function findInvoiceByTxid(db: Database, txid: string): Promise<InvoiceRow | undefined> {
  return selectInvoices(db, 'all').where('invoices.txid', '=', txid).executeTakeFirst();
}
