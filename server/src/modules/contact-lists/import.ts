// A spreadsheet into a contact list: the contacts module's import (contacts/import.ts: rows in,
// batches of 1,000 each one write, the NDJSON report with a reason per row) with a batch that
// stores list items instead of contacts. The unique (company, list, number) index makes a rerun
// harmless: every row already in the list is reported as skipped.
import type { ContactImportIssue, ContactImportSummary } from '@zapdesk/sync';
import type { AppDeps } from '../../context.ts';
import { tenant } from '../../db/tenant.ts';
import { change, emit } from '../../events/emit.ts';
import type { Tx } from '../../db/write.ts';
import { importRows, type ImportOptions } from '../contacts/import.ts';
import { validateRow, type BatchResult, type CreatedContact, type NumberedRow } from '../contacts/import-batch.ts';

const DUPLICATE_IN_FILE = 'Duplicated number in this file';
const ALREADY_IN_LIST = 'This number is already in the list';

const issueOf = (row: number, fields: { name: string; number: string; email: string }, kind: ContactImportIssue['kind'], reason: string, code: ContactImportIssue['code']): ContactImportIssue => ({
  row,
  name: fields.name,
  number: fields.number,
  email: fields.email,
  kind,
  code,
  reason,
});

/**
 * One batch of a list's import, inside its write. A number repeated within a batch is rejected as a
 * duplicate of the file; one already in the list (from an earlier batch of this file too, since the
 * items carry no import key) is skipped.
 */
export async function importContactListBatch(tx: Tx, companyId: number, listId: number, rows: NumberedRow[]): Promise<BatchResult> {
  const issues: ContactImportIssue[] = [];
  const valid: { row: number; name: string; number: string; email: string }[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    const checked = validateRow(r);
    if ('reason' in checked) issues.push(issueOf(r.row, r.fields, 'rejected', checked.reason, 'ERR_VALIDATION'));
    else if (seen.has(checked.number)) issues.push(issueOf(checked.row, checked, 'rejected', DUPLICATE_IN_FILE, 'ERR_DUPLICATED_CONTACT'));
    else {
      seen.add(checked.number);
      valid.push(checked);
    }
  }
  const created: CreatedContact[] = [];
  if (valid.length > 0) {
    const inserted = await tenant(tx.db, companyId)
      .insertInto('contactListItems', valid.map((v) => ({ contactListId: listId, name: v.name, number: v.number, email: v.email })))
      .onConflict((oc) => oc.columns(['companyId', 'contactListId', 'number']).doNothing())
      .returning(['contactListItems.id', 'contactListItems.number'])
      .execute();
    const idByNumber = new Map(inserted.map((r) => [r.number, r.id]));
    for (const v of valid) {
      const id = idByNumber.get(v.number);
      if (id !== undefined) created.push({ id, name: v.name, number: v.number, row: v.row });
      else issues.push(issueOf(v.row, v, 'skipped', ALREADY_IN_LIST, 'ERR_DUPLICATED_CONTACT'));
    }
  }
  issues.sort((a, b) => a.row - b.row);
  if (created.length > 0) {
    tx.effects.poke(companyId);
    await emit(tx, change(companyId, 'ContactListItem', 'create', created[0]!.id, { batch: created.map((c) => c.id), listId }));
  }
  return { created, issues };
}

/** The list must be the company's (the route checks it before reading the upload). */
export function importContactListItems(
  deps: AppDeps,
  companyId: number,
  listId: number,
  rows: AsyncIterable<NumberedRow> | Iterable<NumberedRow>,
  opts: ImportOptions = {},
): Promise<ContactImportSummary> {
  return importRows(deps, rows, (tx, _importId, batch) => importContactListBatch(tx, companyId, listId, batch), opts);
}
