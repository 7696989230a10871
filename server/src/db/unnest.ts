// PostgreSQL: many rows in one statement as one array parameter per column, read back as rows by
// `unnest($1::text[], $2::int[], …) AS v(a, b, …)`. The statement's text depends only on its
// columns, whatever the number of rows: a VALUES list (or a CASE per column) of 160 rows carried
// thousands of parameters that the client built and the server parsed and planned for each batch,
// and a CASE is searched linearly for every row it updates.
import { sql, type RawBuilder } from 'kysely';

/** A column: its name in the statement, its PostgreSQL type, and how a row gives its value. */
export type Column<R> = readonly [name: string, type: 'text' | 'integer' | 'timestamptz', value: (row: R) => unknown];

/** `unnest(…) AS <alias>(…)` over the rows, to use as a FROM item. */
export function unnestRows<R>(rows: readonly R[], columns: readonly Column<R>[], alias: string): RawBuilder<unknown> {
  const arrays = columns.map(([, type, value]) => sql`${sql.val(rows.map(value))}::${sql.raw(type)}[]`);
  return sql`unnest(${sql.join(arrays)}) as ${sql.raw(alias)}(${sql.raw(columns.map(([name]) => name).join(', '))})`;
}

/** The column names, comma-separated, for an INSERT's column list or a SELECT. */
export const columnList = <R>(columns: readonly Column<R>[], prefix = ''): RawBuilder<unknown> => sql.raw(columns.map(([name]) => prefix + name).join(', '));
