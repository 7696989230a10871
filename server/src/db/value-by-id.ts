// Per-row values in one UPDATE of many rows: `set column = case <key> when id1 then v1 … end` with
// `where id in (…)`, instead of a statement per row (a round trip each on PostgreSQL). Each value is
// cast, so both dialects read the bound parameters alike (text, integer).
import { sql, type RawBuilder } from 'kysely';

export function valueById<T>(key: string, pairs: readonly (readonly [id: unknown, value: unknown])[], type: 'text' | 'integer'): RawBuilder<T> {
  const cases = pairs.map(([id, value]) => sql`when ${id} then cast(${value} as ${sql.raw(type)})`);
  return sql<T>`case ${sql.ref(key)} ${sql.join(cases, sql` `)} end`;
}
