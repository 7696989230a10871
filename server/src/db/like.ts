// Case-insensitive substring search with LIKE, alike on SQLite and PostgreSQL. The pattern is
// lower-cased and the search's own wildcards (`%`, `_`) and the escape character are escaped, so
// "50%" finds "50%" only. Use it as `lower(<column>) like <pattern> escape '\'`: SQLite has no
// default escape character, so the `escape` clause is what makes the backslashes count.
// (Never over the messages table: DESIGN §3 keeps message search on the full-text indexes.)
// For names, `likeFolded` also ignores accents, alike on both dialects (fold.ts).
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { FOLD_FUNCTION, foldText } from './fold.ts';

/** `%search%` for LIKE, lower-cased, with the search's own wildcards escaped. */
export function toLikePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * `<column> contains <search>`, ignoring case and accents on both dialects ("jose" finds "José" and
 * "JOSÉ" finds "jose"); a null column matches nothing. `%` and `_` in the search are literal.
 */
export function likeFolded(column: Expression<string | null>, search: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.raw(FOLD_FUNCTION)}(coalesce(${column}, '')) like ${toLikePattern(foldText(search))} escape '\\'`;
}
