// Companies: the super-admin manages them; a company's own users read it, and its admins set its hours.
// Writes take the route's transaction (`tx`, db/write.ts); a change to a company's row (synced as
// company/<id>, view.ts) pokes its users once committed.
import { AppError, isCompanyAdmin, recurrenceSchema, renewDueDate, type CompaniesPage, type Company, type CompanyCreateInput, type CompanyUpdateInput, type ListQuery, type Recurrence, type Schedule } from '@zapdesk/sync';
import type { Updateable } from 'kysely';
import { resolveCompanyId } from '../../auth/company-scope.ts';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Companies } from '../../db/schema.ts';
import type { Tx } from '../../db/write.ts';
import { findPlanRow, findPlanRowsByIds } from '../plans/queries.ts';
import { findSettings } from '../settings/service.ts';
import { toCompanyDto, type CompanyRow } from './dto.ts';
import {
  endCompanySessions,
  findAllCompanyRows,
  findCompanyRow,
  findCompanyRowsPage,
  insertCompanyAdmin,
  insertCompanyRow,
  insertDefaultSettings,
  isEmailInUse,
  setCampaignsEnabled,
  updateCompanyRow,
} from './queries.ts';

type Reader = Pick<Actor, 'companyId' | 'super' | 'profile'>;

/** The company's first admin, with the password already hashed (outside any transaction: hashing is slow). */
export type FirstAdmin = { name: string; email: string; passwordHash: string };

/** Companies of a list, each with its plan (read once per plan, not once per company). */
async function toCompanyDtos(db: Database, rows: CompanyRow[]): Promise<Company[]> {
  const plans = await findPlanRowsByIds(db, rows.flatMap((r) => (r.planId === null ? [] : [r.planId])));
  return rows.map((r) => toCompanyDto(r, r.planId === null ? undefined : plans.get(r.planId)));
}

export async function listCompaniesPage(db: Database, query: ListQuery): Promise<CompaniesPage> {
  const page = await findCompanyRowsPage(db, query.searchParam, query.pageNumber);
  return { companies: await toCompanyDtos(db, page.rows), count: page.count, hasMore: page.hasMore };
}

export async function listCompanies(db: Database): Promise<Company[]> {
  return toCompanyDtos(db, await findAllCompanyRows(db));
}

/** One company with its settings. Outside the super-admin, only one's own company exists. */
export async function getCompany(db: Database, actor: Reader, id: number): Promise<Company> {
  return readCompany(db, await resolveCompanyId(db, actor, id));
}

/**
 * One company with its plan and settings, for a caller that has already decided the reader may see
 * it: GET /companies/{id} and the company's sync view (view.ts) answer alike.
 */
export async function readCompany(db: Database, id: number): Promise<Company> {
  const company = await findCompany(db, id);
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
  return company;
}

/** readCompany, or undefined for an unknown id. */
export async function findCompany(db: Database, id: number): Promise<Company | undefined> {
  const row = await findCompanyRow(db, id);
  if (!row) return undefined;
  const plan = row.planId === null ? undefined : await findPlanRow(db, row.planId);
  return toCompanyDto(row, plan, await findSettings(db, id));
}

/**
 * Inserts the company, its default settings and, when given, its first admin, all or nothing. A new
 * company has no user yet whose view could change, so nobody is poked.
 */
export async function createCompany(tx: Tx, input: CompanyCreateInput, admin: FirstAdmin | undefined, now = new Date()): Promise<Company> {
  const { db } = tx;
  if (!(await findPlanRow(db, input.planId))) throw new AppError('ERR_NO_PLAN_FOUND');
  const recurrence = input.recurrence ?? 'MENSAL';
  const id = await insertCompanyRow(db, {
    ...toCompanyColumns(input),
    name: input.name,
    recurrence,
    // Without a due date nobody could log in; one period of the recurrence is what a renewal would give.
    dueDate: input.dueDate === undefined ? renewDueDate(null, recurrence, now) : input.dueDate,
  });
  await insertDefaultSettings(db, id, input.campaignsEnabled ?? true);
  if (admin) await addFirstAdmin(db, id, admin);
  return readCompany(db, id);
}

/**
 * The admin who opens a new company; an email taken anywhere on the platform is refused. A race lost
 * to the unique index becomes the AppError and ends the write (nothing is queried after it).
 */
export async function addFirstAdmin(db: Database, companyId: number, admin: FirstAdmin): Promise<void> {
  if (await isEmailInUse(db, admin.email)) throw new AppError('ERR_EMAIL_IN_USE');
  try {
    await insertCompanyAdmin(db, companyId, admin);
  } catch (err) {
    // Two sign-ups racing for one email: the unique index decides.
    if (isUniqueViolation(err)) throw new AppError('ERR_EMAIL_IN_USE');
    throw err;
  }
}

export async function updateCompany(tx: Tx, id: number, input: CompanyUpdateInput): Promise<Company> {
  const { db } = tx;
  const row = await findCompanyRow(db, id);
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND');
  if (input.planId !== undefined && !(await findPlanRow(db, input.planId))) throw new AppError('ERR_NO_PLAN_FOUND');
  await updateCompanyRow(db, id, toCompanyColumns(input));
  // Deactivated: its users are signed out (a login is refused ERR_COMPANY_INACTIVE from now on) and
  // its campaigns wait (campaigns/dispatch/job.ts). A super-admin of the company stays signed in.
  if (input.status === false && row.status === 1) await endCompanySessions(tx, id, 'company-inactive', { keepSuper: true });
  if (input.campaignsEnabled !== undefined) await setCampaignsEnabled(db, id, input.campaignsEnabled);
  tx.effects.poke(id);
  return readCompany(db, id);
}

/** Business hours of a company: its admins or the super-admin. Another company's id reads as unknown. */
export async function updateCompanySchedules(tx: Tx, actor: Reader, id: number, schedules: Schedule[]): Promise<Company> {
  await resolveCompanyId(tx.db, actor, id);
  if (!isCompanyAdmin(actor)) throw new AppError('ERR_NO_PERMISSION');
  if (!(await updateCompanyRow(tx.db, id, { schedules: JSON.stringify(schedules) }))) throw new AppError('ERR_NO_COMPANY_FOUND');
  tx.effects.poke(id);
  return getCompany(tx.db, actor, id);
}

/** Moves the due date one recurrence period on (spec/01 §4), from today when it has already passed. */
export async function renewCompany(tx: Tx, id: number, now = new Date(), period?: Recurrence): Promise<Company> {
  const row = await findCompanyRow(tx.db, id);
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND');
  // The period paid for (an invoice's), else the company's; one outside the list (written by hand
  // in the database) renews as monthly.
  const recurrence = period ?? recurrenceSchema.catch('MENSAL').parse(row.recurrence);
  await updateCompanyRow(tx.db, id, { dueDate: renewDueDate(row.dueDate, recurrence, now) });
  tx.effects.poke(id);
  return readCompany(tx.db, id);
}

const COLUMNS = ['name', 'email', 'phone', 'planId', 'recurrence', 'dueDate', 'document', 'paymentMethod', 'addressZip', 'addressStreet', 'addressNumber', 'addressDistrict', 'addressCity', 'addressState'] as const;

/** The columns a body names; fields left out stay out, so an update changes only what was sent. */
function toCompanyColumns(input: CompanyUpdateInput): Updateable<Companies> {
  const row: Updateable<Companies> = Object.fromEntries(COLUMNS.filter((k) => input[k] !== undefined).map((k) => [k, input[k]]));
  if (input.status !== undefined) row.status = input.status ? 1 : 0;
  return row;
}
