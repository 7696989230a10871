// Data functions of queue integrations: the database handle (often a transaction) first, the
// company second; every query goes through the company filter (db/tenant.ts).
import { PAGE_SIZE } from '@zapdesk/sync';
import type { Database } from '../../db/database.ts';
import { likeFolded } from '../../db/like.ts';
import { tenant } from '../../db/tenant.ts';

/** The pickers of the connection and queue modals read every integration at once; more is paged. */
export const MAX_UNPAGED_INTEGRATIONS = 1_000;

/** A page of integrations by name (searched over the name), or all of them when `pageNumber` is not given. */
export async function findIntegrationsPage(db: Database, companyId: number, search: string, pageNumber: number | undefined) {
  let query = tenant(db, companyId).selectFrom('queueIntegrations').selectAll('queueIntegrations');
  if (search) query = query.where((eb) => likeFolded(eb.ref('queueIntegrations.name'), search));
  const size = pageNumber === undefined ? MAX_UNPAGED_INTEGRATIONS : PAGE_SIZE;
  const rows = await query
    .orderBy('queueIntegrations.name')
    .orderBy('queueIntegrations.id')
    .limit(size + 1)
    .offset(((pageNumber ?? 1) - 1) * size)
    .execute();
  return { rows: rows.slice(0, size), hasMore: rows.length > size };
}

export async function findIntegrationRow(db: Database, companyId: number, id: number) {
  return tenant(db, companyId).selectFrom('queueIntegrations').selectAll('queueIntegrations').where('queueIntegrations.id', '=', id).executeTakeFirst();
}

export async function isOwnFlow(db: Database, companyId: number, flowId: number): Promise<boolean> {
  return (await tenant(db, companyId).selectFrom('flows').select('flows.id').where('flows.id', '=', flowId).executeTakeFirst()) !== undefined;
}
