// Reading contacts in bulk: the paginated list, the select options and the CSV export. Name searches
// go through the full-text index (contacts_fts on SQLite, search_tsv on PostgreSQL); a number is
// matched by its digits anywhere in it (LIKE over the company's contacts, not over messages).
import { PAGE_SIZE, toDigits, type ContactListQuery, type ContactOption, type ContactsPage } from '@zapdesk/sync';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Database, Dialect } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import { searchTerms } from '../tickets/search.ts';
import { toContactDtos } from './dto.ts';

const OPTIONS_LIMIT = 1_000;

/**
 * Every word of the search as a prefix of a word of the name or of the number. A search that looks
 * like a phone number ("+55 (11) 9999") is its digits, found anywhere in the number (or as a word
 * prefix, for names with digits), not three words.
 */
function searchCondition(dialect: Dialect, companyId: number, search: string): Expression<SqlBool> | undefined {
  const digits = toDigits(search);
  const phoneLike = /^[\d\s()+.-]+$/.test(search) && digits.length > 0;
  // Accents folded as both indexes fold them (migration 20261122T030000 for PostgreSQL).
  const terms = phoneLike ? [digits] : searchTerms(search.normalize('NFD').replace(/\p{M}/gu, ''));
  if (terms.length === 0) return undefined;
  const words = wordsCondition(dialect, companyId, terms);
  // A number is found by any part of its digits: the last ones, without the country code, or as
  // typed with its punctuation. Numbers are stored as digits; the scan stays in one company's rows.
  return phoneLike ? sql<SqlBool>`(contacts.number LIKE ${`%${digits}%`} OR ${words})` : words;
}

function wordsCondition(dialect: Dialect, companyId: number, terms: string[]): Expression<SqlBool> {
  if (dialect === 'sqlite') {
    const match = terms.map((t) => `"${t}"*`).join(' ');
    return sql<SqlBool>`contacts.id IN (SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ${match})`;
  }
  const query = terms.map((t) => `${t}:*`).join(' & ');
  return sql<SqlBool>`contacts.search_tsv @@ to_tsquery('simple', ${query}) AND contacts.company_id = ${companyId}`;
}

/** Start and end (exclusive) of the createdAt filter, in UTC days: `date` is one day, dateStart/dateEnd a range. */
function dateRange(query: ContactListQuery): { from?: string; to?: string } {
  const start = query.date ?? query.dateStart;
  const end = query.date ?? query.dateEnd;
  const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();
  return { from: start ? `${start}T00:00:00.000Z` : undefined, to: end ? nextDay(end) : undefined };
}

/** GET /contacts: 20 per page by name, with the total count of the filter. */
export async function findContactsPage(db: Database, dialect: Dialect, companyId: number, query: ContactListQuery): Promise<ContactsPage> {
  const search = searchCondition(dialect, companyId, query.searchParam);
  const { from, to } = dateRange(query);
  const filtered = tenant(db, companyId)
    .selectFrom('contacts')
    .$if(search !== undefined, (q) => q.where(search!))
    .$if(from !== undefined, (q) => q.where('contacts.createdAt', '>=', from!))
    .$if(to !== undefined, (q) => q.where('contacts.createdAt', '<', to!));
  const [rows, total] = await Promise.all([
    filtered
      .selectAll('contacts')
      .orderBy('contacts.name')
      .orderBy('contacts.id')
      .limit(PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * PAGE_SIZE)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    contacts: await toContactDtos(db, companyId, rows.slice(0, PAGE_SIZE)),
    hasMore: rows.length > PAGE_SIZE,
    count: Number(total.n),
  };
}

/** GET /contacts/list: id, name and number for selects, by name; `name` narrows like the search does. */
export async function findContactOptions(db: Database, dialect: Dialect, companyId: number, name: string): Promise<ContactOption[]> {
  const search = name ? searchCondition(dialect, companyId, name) : undefined;
  return tenant(db, companyId)
    .selectFrom('contacts')
    .select(['contacts.id', 'contacts.name', 'contacts.number'])
    .$if(search !== undefined, (q) => q.where(search!))
    .orderBy('contacts.name')
    .orderBy('contacts.id')
    .limit(OPTIONS_LIMIT)
    .execute();
}

/**
 * A field of the export: a cell a spreadsheet would run as a formula (it starts with `=`, `+`, `-`,
 * `@`, a tab or a carriage return: "CSV injection") gets a leading `'`, which spreadsheets show as
 * text; then it is quoted when it holds the separator, a quote or a line break. The stored contact
 * keeps its exact text: only the file is defused.
 */
function csvField(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * GET /contacts/export: contatos.csv (spec/02 §2 screen 12) — `;`, columns name, number, email.
 * Read by id in pages so memory stays flat however many contacts the company has. The BOM makes
 * Excel read the accents of Portuguese names as UTF-8.
 */
export async function* exportContactsCsv(db: Database, companyId: number, pageSize = 1_000): AsyncGenerator<string> {
  yield '\uFEFFname;number;email\r\n';
  let afterId = 0;
  for (;;) {
    const rows = await tenant(db, companyId)
      .selectFrom('contacts')
      .select(['contacts.id', 'contacts.name', 'contacts.number', 'contacts.email'])
      .where('contacts.id', '>', afterId)
      .orderBy('contacts.id')
      .limit(pageSize)
      .execute();
    if (rows.length === 0) return;
    yield rows.map((r) => `${csvField(r.name)};${csvField(r.number)};${csvField(r.email)}\r\n`).join('');
    afterId = rows[rows.length - 1]!.id;
  }
}
