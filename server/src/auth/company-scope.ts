// Which company a request acts on. The super-admin manages every company (spec/01 §1), so the
// company-scoped routes take a `companyId` in the query or body (spec/03: GET /whatsapp?companyId=);
// everyone else acts on their own company. One rule for every route that honours the parameter,
// and for the routes that name a company in the path (/companies/{id}, /companies/listPlan/{id}):
// - no company named, or the caller's own: the caller's company;
// - another company, named by the super-admin: that company, once it is known to exist;
// - another company, named by anyone else: 404 ERR_NO_COMPANY_FOUND, the answer an unknown company
//   gets, so ids do not leak, and a write meant for another company never lands in the caller's
//   (which serving their own company instead would do).
import { AppError } from '@zapdesk/sync';
import type { Actor } from '../context.ts';
import type { Database } from '../db/database.ts';

export type CompanyScopeActor = Pick<Actor, 'companyId' | 'super'>;

/** The company the request acts on (see the header); throws 404 ERR_NO_COMPANY_FOUND otherwise. */
export async function resolveCompanyId(db: Database, actor: CompanyScopeActor, requested: number | undefined): Promise<number> {
  if (requested === undefined || requested === actor.companyId) return actor.companyId;
  if (!actor.super) throw new AppError('ERR_NO_COMPANY_FOUND');
  const company = await db.selectFrom('companies').select('companies.id').where('companies.id', '=', requested).executeTakeFirst();
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
  return company.id;
}
