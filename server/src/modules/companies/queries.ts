// Data functions of companies. Companies are a platform table; their settings and users are tenant
// tables, reached through tenant() (or, in the list join, tied row by row to the company's id).
import { DEFAULT_SETTINGS, PAGE_SIZE } from '@zapdesk/sync';
import type { ExpressionBuilder, Insertable, Updateable } from 'kysely';
import { nowIso, type Database } from '../../db/database.ts';
import { likeFolded } from '../../db/like.ts';
import type { Companies, DB } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import type { CompanyRow } from './dto.ts';

/** Companies with their campaignsEnabled setting, one row each (their plans are read apart: few, shared). */
function selectCompanies(db: Database) {
  return db
    .selectFrom('companies')
    .leftJoin('settings', (join) => join.onRef('settings.companyId', '=', 'companies.id').on('settings.key', '=', 'campaignsEnabled'))
    .selectAll('companies')
    .select(['settings.value as campaignsEnabledValue']);
}

export async function findCompanyRow(db: Database, id: number): Promise<CompanyRow | undefined> {
  return selectCompanies(db).where('companies.id', '=', id).executeTakeFirst();
}

export async function findAllCompanyRows(db: Database): Promise<CompanyRow[]> {
  return selectCompanies(db).orderBy('companies.name').orderBy('companies.id').execute();
}

const SEARCHED = ['companies.name', 'companies.email', 'companies.phone', 'companies.document'] as const;

function matchesSearch(search: string) {
  return (eb: ExpressionBuilder<DB, 'companies'>) => eb.or(SEARCHED.map((col) => likeFolded(eb.ref(col), search)));
}

/** One page of companies searched over name, email, phone and document (case and accents ignored on both dialects). */
export async function findCompanyRowsPage(db: Database, search: string, pageNumber: number) {
  let counted = db.selectFrom('companies').select((eb) => eb.fn.countAll<number>().as('count'));
  let paged = selectCompanies(db);
  if (search) {
    const filter = matchesSearch(search);
    counted = counted.where(filter);
    paged = paged.where(filter);
  }
  const { count } = await counted.executeTakeFirstOrThrow();
  const rows = await paged
    .orderBy('companies.name')
    .orderBy('companies.id')
    .limit(PAGE_SIZE)
    .offset((pageNumber - 1) * PAGE_SIZE)
    .execute();
  const total = Number(count);
  return { rows, count: total, hasMore: total > (pageNumber - 1) * PAGE_SIZE + rows.length };
}

export async function insertCompanyRow(db: Database, row: Insertable<Companies>): Promise<number> {
  const { id } = await db.insertInto('companies').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** Changes the fields given and bumps the row version; false when the id is unknown. */
export async function updateCompanyRow(db: Database, id: number, row: Updateable<Companies>): Promise<boolean> {
  const result = await db
    .updateTable('companies')
    .set(row)
    .set((eb) => ({ version: eb('companies.version', '+', 1), updatedAt: nowIso() }))
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes the company; its tenant rows go with it (every company_id cascades). */
export async function deleteCompanyRow(db: Database, id: number): Promise<boolean> {
  const result = await db.deleteFrom('companies').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function insertDefaultSettings(db: Database, companyId: number, campaignsEnabled: boolean): Promise<void> {
  const values: Record<string, string> = { ...DEFAULT_SETTINGS, campaignsEnabled: String(campaignsEnabled) };
  await tenant(db, companyId)
    .insertInto('settings', Object.entries(values).map(([key, value]) => ({ key, value })))
    .execute();
}

/** Sets the campaignsEnabled setting, creating the row if the company lacks it. */
export async function setCampaignsEnabled(db: Database, companyId: number, enabled: boolean): Promise<void> {
  const t = tenant(db, companyId);
  const value = String(enabled);
  const updated = await t
    .updateTable('settings')
    .set((eb) => ({ value, version: eb('settings.version', '+', 1), updatedAt: nowIso() }))
    .where('key', '=', 'campaignsEnabled')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) await t.insertInto('settings', { key: 'campaignsEnabled', value }).execute();
}

/**
 * Ends the company's open sessions (a super-admin's too unless `keepSuper`) with `reason`, told to
 * their devices once the write commits; the next request of each is refused saying why.
 */
export async function endCompanySessions(tx: Tx, companyId: number, reason: string, opts: { keepSuper?: boolean } = {}): Promise<void> {
  const now = nowIso();
  let query = tenant(tx.db, companyId)
    .updateTable('userSessions')
    .set({ revokedAt: now, revokedReason: reason, updatedAt: now })
    .where('userSessions.revokedAt', 'is', null);
  if (opts.keepSuper) query = query.where((eb) => eb('userSessions.userId', 'not in', eb.selectFrom('users').select('users.id').where('users.companyId', '=', companyId).where('users.super', '=', 1)));
  const ended = (await query.returning('userSessions.id').execute()).map((s) => s.id);
  if (ended.length) tx.effects.afterCommit(({ realtime }) => realtime.sessionRevoked(ended, reason));
}

export async function countSuperUsers(db: Database, companyId: number): Promise<number> {
  const row = await tenant(db, companyId)
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('super', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Emails name one account on the whole platform (login is by email alone), so this looks everywhere. */
export async function isEmailInUse(db: Database, email: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  return row !== undefined;
}

export async function insertCompanyAdmin(db: Database, companyId: number, admin: { name: string; email: string; passwordHash: string }): Promise<number> {
  const { id } = await tenant(db, companyId)
    .insertInto('users', { name: admin.name, email: admin.email, passwordHash: admin.passwordHash, profile: 'admin' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}
