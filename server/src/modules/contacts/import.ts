// The contact import service: any stream of rows (a spreadsheet file, the web's JSON rows, the
// CLI's batches) goes in, batches of BATCH_SIZE rows each commit as a write of their own
// (db/write.ts), and a report comes out row by row. Memory stays flat: one batch is held at a time.
// A crash or a bad file midway leaves only whole batches behind; the unique (company, number)
// index makes rerunning the same file harmless (every stored row is reported as skipped).
import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { AppError, type ContactImportCounts, type ContactImportEvent, type ContactImportSummary } from '@zapdesk/sync';
import type { AppDeps } from '../../context.ts';
import { write } from '../../db/write.ts';
import type { Tx } from '../../db/write.ts';
import { importContactBatch, type BatchResult, type NumberedRow } from './import-batch.ts';

export const BATCH_SIZE = 1_000;

export type ImportOptions = {
  /** Stamped on the created contacts (contacts.import_key); a fresh UUID when not given. */
  importId?: string;
  batchSize?: number;
  /** Every event of the report, awaited: a slow consumer (an HTTP response) slows the import down. */
  onEvent?: (event: ContactImportEvent) => void | Promise<void>;
  /** Each committed batch, with the contacts it created (POST /contacts/upload lists them). */
  onBatch?: (result: BatchResult) => void;
};

/** Stores one batch inside its write: what it created and why the other rows did not land. */
export type StoreBatch = (tx: Tx, importId: string, rows: NumberedRow[]) => Promise<BatchResult>;

export async function importContacts(deps: AppDeps, companyId: number, rows: AsyncIterable<NumberedRow> | Iterable<NumberedRow>, opts: ImportOptions = {}): Promise<ContactImportSummary> {
  return importRows(deps, rows, (tx, importId, batch) => importContactBatch(tx, companyId, importId, batch), opts);
}

/**
 * The import loop with its report, for any destination: contacts above, the items of a contact list
 * (contact-lists/import.ts). `storeBatch` writes one batch; the rows, batches, events and failure
 * handling are the same for every caller.
 */
export async function importRows(deps: AppDeps, rows: AsyncIterable<NumberedRow> | Iterable<NumberedRow>, storeBatch: StoreBatch, opts: ImportOptions = {}): Promise<ContactImportSummary> {
  const importId = opts.importId ?? randomUUID();
  const batchSize = opts.batchSize ?? BATCH_SIZE;
  const counts: ContactImportCounts = { rows: 0, imported: 0, skipped: 0, rejected: 0 };
  const emit = async (event: ContactImportEvent) => opts.onEvent?.(event);
  let batch: NumberedRow[] = [];
  // One batch is stored while the next is read: on PostgreSQL the reading overlaps the round trip.
  let storing: Promise<void> = Promise.resolve();

  async function store(rowsOfBatch: NumberedRow[]) {
    const result = await write(deps, (tx) => storeBatch(tx, importId, rowsOfBatch));
    counts.rows += rowsOfBatch.length;
    counts.imported += result.created.length;
    for (const issue of result.issues) counts[issue.kind] += 1;
    opts.onBatch?.(result);
    for (const issue of result.issues) await emit({ type: 'issue', ...issue });
    await emit({ type: 'progress', ...counts });
    // Back to the event loop between batches: on SQLite a batch is synchronous work and a file held
    // in memory is read without I/O, so without this a big import would hold every other request
    // of every company (and the timers) until its last row.
    await yieldToEventLoop();
  }

  async function flush() {
    if (batch.length === 0) return;
    const rowsOfBatch = batch;
    batch = [];
    await storing;
    storing = store(rowsOfBatch);
    // A failed store must not go unobserved while the next batch is read; it is awaited below.
    storing.catch(() => undefined);
  }

  await emit({ type: 'start', importId });
  try {
    for await (const row of rows) {
      batch.push(row);
      if (batch.length >= batchSize) await flush();
    }
    await flush();
    await storing;
  } catch (err) {
    // The batch being read is dropped whole; what committed stays, and a rerun finishes the job.
    await storing.catch(() => undefined);
    const error = err instanceof AppError ? err : new AppError('ERR_INTERNAL_SERVER_ERROR');
    await emit({ type: 'failed', error: error.code, message: error.message, importId, ...counts });
    throw err;
  }
  const summary = { importId, ...counts };
  await emit({ type: 'done', ...summary });
  return summary;
}
