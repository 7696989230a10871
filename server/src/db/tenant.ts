// The company filter. Every query of a tenant table goes through `tenant(db, companyId)`, so no
// query can forget whose data it reads or changes.
import { sql, type DeleteQueryBuilder, type DeleteResult, type InsertQueryBuilder, type InsertResult, type Insertable, type Kysely, type SelectQueryBuilder, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { DB } from './schema.ts';

/** Tables whose rows belong to one company. */
export type TenantTable = { [K in keyof DB]: DB[K] extends { companyId: number } ? K : never }[keyof DB];

type Db = Kysely<DB>;

export type Tenant = {
  readonly companyId: number;
  selectFrom<T extends TenantTable>(table: T): SelectQueryBuilder<DB, T, object>;
  updateTable<T extends TenantTable>(table: T): UpdateQueryBuilder<DB, T, T, UpdateResult>;
  deleteFrom<T extends TenantTable>(table: T): DeleteQueryBuilder<DB, T, DeleteResult>;
  /** Inserts rows stamped with the company, whatever companyId the caller passed. */
  insertInto<T extends TenantTable>(
    table: T,
    rows: Omit<Insertable<DB[T]>, 'companyId'> | Omit<Insertable<DB[T]>, 'companyId'>[],
  ): InsertQueryBuilder<DB, T, InsertResult>;
};

/**
 * How the company term reads: `index`, a term the planner may search by (the company's indexes all
 * start with it); `check`, a condition on each row the query finds through another index (written
 * `+company_id = ?`, which SQLite cannot search by). Without statistics SQLite prefers an equality
 * on an index's first column to a list of ids on another's, so a lookup of a few tickets' rows by
 * `ticket_id IN (…)` walked every row of the company instead (its tags, its ratings). PostgreSQL
 * plans with statistics and reads `+company_id` as the same filter.
 */
export type CompanyTerm = 'index' | 'check';

// Kysely cannot type a `where` on a generic table, so the casts live here, once.
/* eslint-disable @typescript-eslint/no-explicit-any */
export function tenant(db: Db, companyId: number, term: CompanyTerm = 'index'): Tenant {
  if (!Number.isInteger(companyId) || companyId <= 0) throw new Error(`tenant(): invalid companyId ${companyId}`);
  const scoped = (query: any, table: string) =>
    term === 'index' ? query.where(`${table}.companyId`, '=', companyId) : query.where(sql`+${sql.ref(`${table}.companyId`)}`, '=', companyId);
  return {
    companyId,
    selectFrom: (table) => scoped(db.selectFrom(table), table),
    updateTable: (table) => scoped(db.updateTable(table), table),
    deleteFrom: (table) => scoped(db.deleteFrom(table), table),
    insertInto: (table, rows) => {
      const stamped = (Array.isArray(rows) ? rows : [rows]).map((r) => ({ ...r, companyId }));
      return db.insertInto(table).values(stamped as any) as any;
    },
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */
