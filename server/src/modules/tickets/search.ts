// Full-text search over message bodies and contact names/numbers (DESIGN §3: never LIKE over
// messages). SQLite: the FTS5 tables messages_fts and contacts_fts. PostgreSQL: the generated
// tsvector columns with GIN indexes. Both match every word of the input as a prefix.
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Dialect } from '../../db/database.ts';

const MAX_TERMS = 8;

/** Letters and digits only: nothing the user types can reach the FTS query syntax. */
export function searchTerms(input: string): string[] {
  return (input.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
}

/** A condition on `tickets` true when a message of the ticket or its contact matches every term. */
export function ticketSearchCondition(dialect: Dialect, companyId: number, terms: string[]): Expression<SqlBool> {
  if (dialect === 'sqlite') {
    const match = terms.map((t) => `"${t}"*`).join(' ');
    return sql<SqlBool>`(tickets.id IN (SELECT m.ticket_id FROM messages m WHERE m.company_id = ${companyId} AND m.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ${match}))
      OR tickets.contact_id IN (SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ${match}))`;
  }
  // to_tsquery with `term:*` (prefix) rather than plainto_tsquery, so both dialects match alike.
  const query = terms.map((t) => `${t}:*`).join(' & ');
  return sql<SqlBool>`(tickets.id IN (SELECT m.ticket_id FROM messages m WHERE m.company_id = ${companyId} AND m.body_tsv @@ to_tsquery('simple', ${query}))
    OR tickets.contact_id IN (SELECT c.id FROM contacts c WHERE c.company_id = ${companyId} AND c.name_tsv @@ to_tsquery('simple', ${query})))`;
}
