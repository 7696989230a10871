// The company filter. Every query of a tenant table goes through `tenant(db, companyId)`, so no
// query can forget whose data it reads or changes.
import type { DeleteQueryBuilder, DeleteResult, InsertQueryBuilder, InsertResult, Insertable, Kysely, SelectQueryBuilder, UpdateQueryBuilder, UpdateResult } from 'kysely';
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

// Kysely cannot type a `where` on a generic table, so the casts live here, once.
/* eslint-disable @typescript-eslint/no-explicit-any */
export function tenant(db: Db, companyId: number): Tenant {
  if (!Number.isInteger(companyId) || companyId <= 0) throw new Error(`tenant(): invalid companyId ${companyId}`);
  return {
    companyId,
    selectFrom: (table) => (db.selectFrom(table) as any).where(`${table}.companyId`, '=', companyId),
    updateTable: (table) => (db.updateTable(table) as any).where(`${table}.companyId`, '=', companyId),
    deleteFrom: (table) => (db.deleteFrom(table) as any).where(`${table}.companyId`, '=', companyId),
    insertInto: (table, rows) => {
      const stamped = (Array.isArray(rows) ? rows : [rows]).map((r) => ({ ...r, companyId }));
      return db.insertInto(table).values(stamped as any) as any;
    },
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */
