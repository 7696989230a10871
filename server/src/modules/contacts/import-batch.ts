// One batch of imported rows: validated, then stored with a single multi-row INSERT … ON CONFLICT
// (company_id, number) DO NOTHING. The unique number makes an import idempotent: rerunning a file
// inserts nothing twice. The caller opens the transaction (one write per batch, so a crash keeps
// whole batches only); a batch that created contacts pokes the company once it commits.
import { contactNameSchema, contactNumberSchema, emailSchema, type ContactImportIssue, type ContactImportRow } from '@zapdesk/sync';
import { CompiledQuery } from 'kysely';
import { tenant } from '../../db/tenant.ts';
import { change, emit } from '../../events/emit.ts';
import type { Tx } from '../../db/write.ts';

export type NumberedRow = { row: number; fields: ContactImportRow };
export type CreatedContact = { id: number; name: string; number: string; row: number };
export type BatchResult = { created: CreatedContact[]; issues: ContactImportIssue[] };

type Valid = { row: number; name: string; number: string; email: string };

const LENGTH_HINT = { name: '2 to 50 characters', number: '8 to 50 digits' } as const;

/** The reason a row cannot be a contact, in words a spreadsheet author understands; or the clean row. */
export function validateRow({ row, fields }: NumberedRow): Valid | { reason: string } {
  if (fields.name === '') return { reason: 'Name is missing' };
  const name = contactNameSchema.safeParse(fields.name);
  if (!name.success) return { reason: `Name is too ${fields.name.trim().length < 2 ? 'short' : 'long'} (${LENGTH_HINT.name})` };
  if (fields.number === '') return { reason: 'Number is missing' };
  const number = contactNumberSchema.safeParse(fields.number);
  if (!number.success) return { reason: `Invalid number (${LENGTH_HINT.number})` };
  let email = '';
  if (fields.email !== '') {
    const parsed = emailSchema.safeParse(fields.email);
    if (!parsed.success) return { reason: 'Invalid email' };
    email = parsed.data;
  }
  return { row, name: name.data, number: number.data, email };
}

const issueOf = (r: NumberedRow | Valid, kind: ContactImportIssue['kind'], reason: string, code: ContactImportIssue['code']): ContactImportIssue => {
  const fields = 'fields' in r ? r.fields : r;
  return { row: r.row, name: fields.name, number: fields.number, email: fields.email, kind, code, reason };
};

/**
 * The one hot statement of an import, written as SQL text: building a query tree for 1,000 rows ×
 * 5 values cost more than SQLite's own work. company_id is bound from the caller's tenant like
 * tenant().insertInto() would stamp it; the same text runs on both dialects.
 */
async function insertContacts(tx: Tx, companyId: number, importId: string, rows: Valid[]): Promise<{ id: number; number: string }[]> {
  const params: unknown[] = [];
  const tuples: string[] = [];
  const mark = tx.dialect === 'postgres' ? () => `$${params.length}` : () => '?';
  const add = (v: unknown) => (params.push(v), mark());
  for (const r of rows) tuples.push(`(${add(companyId)}, ${add(r.name)}, ${add(r.number)}, ${add(r.email)}, ${add(importId)})`);
  const text = `INSERT INTO contacts (company_id, name, number, email, import_key) VALUES ${tuples.join(', ')} ON CONFLICT (company_id, number) DO NOTHING RETURNING id, number`;
  const result = await tx.db.executeQuery<{ id: number; number: string }>(CompiledQuery.raw(text, params));
  return result.rows;
}

const DUPLICATE_IN_FILE = 'Duplicated number in this file';
const ALREADY_EXISTS = 'A contact with this number already exists';

/**
 * Stores the good rows of a batch. `importId` goes into contacts.import_key: a conflict with a row
 * of this same import is a number repeated in the file (rejected); any other conflict is a contact
 * the company already had (skipped, so a rerun reports every row as skipped and adds nothing).
 */
export async function importContactBatch(tx: Tx, companyId: number, importId: string, rows: NumberedRow[]): Promise<BatchResult> {
  const issues: ContactImportIssue[] = [];
  const valid: Valid[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    const checked = validateRow(r);
    if ('reason' in checked) issues.push(issueOf(r, 'rejected', checked.reason, 'ERR_VALIDATION'));
    else if (seen.has(checked.number)) issues.push(issueOf(checked, 'rejected', DUPLICATE_IN_FILE, 'ERR_DUPLICATED_CONTACT'));
    else {
      seen.add(checked.number);
      valid.push(checked);
    }
  }
  const created: CreatedContact[] = [];
  if (valid.length > 0) {
    const t = tenant(tx.db, companyId);
    const inserted = await insertContacts(tx, companyId, importId, valid);
    const idByNumber = new Map(inserted.map((r) => [r.number, r.id]));
    const conflicting = valid.filter((v) => !idByNumber.has(v.number));
    const keyByNumber = new Map<string, string | null>();
    if (conflicting.length > 0) {
      const existing = await t
        .selectFrom('contacts')
        .select(['contacts.number', 'contacts.importKey'])
        .where('contacts.number', 'in', conflicting.map((v) => v.number))
        .execute();
      for (const e of existing) keyByNumber.set(e.number, e.importKey);
    }
    for (const v of valid) {
      const id = idByNumber.get(v.number);
      if (id !== undefined) created.push({ id, name: v.name, number: v.number, row: v.row });
      else if (keyByNumber.get(v.number) === importId) issues.push(issueOf(v, 'rejected', DUPLICATE_IN_FILE, 'ERR_DUPLICATED_CONTACT'));
      else issues.push(issueOf(v, 'skipped', ALREADY_EXISTS, 'ERR_DUPLICATED_CONTACT'));
    }
  }
  issues.sort((a, b) => a.row - b.row);
  // A batch of rows the company already had changes nothing a client shows: a rerun pokes no one.
  if (created.length > 0) {
    tx.effects.poke(companyId);
    // One event for the batch: one live message with its records, a contact.created per record.
    await emit(tx, change(companyId, 'contact', 'create', created[0]!.id, { batch: created.map((c) => c.id), hooks: ['contact.created'], orderKey: 'contact:' }));
  }
  return { created, issues };
}
