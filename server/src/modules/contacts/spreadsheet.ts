// Streaming readers of contact spreadsheets: rows come out one at a time, whatever the file's
// size. xlsx through our streaming reader (xlsx.ts: first sheet only), csv through csv-parse with
// the separator guessed from the title line (`;` as in our own export, `,` or tab).
import { Readable } from 'node:stream';
import { AppError, findContactColumns, pickContactCells, POSITIONAL_COLUMNS, type ContactColumns } from '@zapdesk/sync';
import { parse } from 'csv-parse';
import type { NumberedRow } from './import-batch.ts';
import { readXlsxRows, type SheetRow } from './xlsx.ts';
import { readBlobSlices } from './zip.ts';

export type SpreadsheetFormat = 'xlsx' | 'csv';

const XLSX_TYPES = /spreadsheetml|ms-excel/i;

/** The format of an upload by its file name, else its content type. */
export function detectFormat(fileName = '', contentType = ''): SpreadsheetFormat | undefined {
  if (/\.xlsx$/i.test(fileName)) return 'xlsx';
  if (/\.(csv|txt)$/i.test(fileName)) return 'csv';
  if (XLSX_TYPES.test(contentType)) return 'xlsx';
  if (/text\/(csv|plain)/i.test(contentType)) return 'csv';
  return undefined;
}

const isBlank = (cells: readonly unknown[]) => cells.every((c) => c === undefined || c === null || String(c).trim() === '');

/**
 * Rows of a sheet as import rows. The first non-blank row names the columns; when none of its
 * titles is known the sheet has no title row and columns are name, number, email.
 */
async function* toImportRows(rows: AsyncIterable<SheetRow>): AsyncGenerator<NumberedRow> {
  let columns: ContactColumns | undefined;
  for await (const { row, cells } of rows) {
    if (isBlank(cells)) continue;
    if (!columns) {
      columns = findContactColumns(cells);
      if (columns) continue;
      columns = POSITIONAL_COLUMNS;
    }
    yield { row, fields: pickContactCells(cells, columns) };
  }
}

async function* xlsxRows(file: Blob): AsyncGenerator<SheetRow> {
  try {
    yield* readXlsxRows(file);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('ERR_VALIDATION', `The file is not a readable .xlsx spreadsheet (${(err as Error).message}).`);
  }
}

/** `;`, `,` or tab: whichever the title line holds most of, outside quotes. */
function guessDelimiter(firstLine: string): string {
  const unquoted = firstLine.replace(/"[^"]*"/g, '');
  const counts = [';', ',', '\t'].map((d) => [d, unquoted.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0]![1] > 0 ? counts[0]![0] : ',';
}

async function* csvRows(file: Blob): AsyncGenerator<SheetRow> {
  // The separator is guessed from the title line, within the first 64 KB.
  const head = Buffer.from(await file.slice(0, 64 * 1024).arrayBuffer()).toString('utf8');
  const delimiter = guessDelimiter(head.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '');
  const parser = Readable.from(readBlobSlices(file), { objectMode: false }).pipe(
    // A record past 1 MB is not a contact row (a quote never closed swallows the rest of the file).
    parse({ bom: true, delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, trim: true, info: true, max_record_size: 1024 * 1024 }),
  );
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      yield { row: item.info.lines, cells: item.record };
    }
  } catch (err) {
    const e = err as Error & { code?: string; lines?: number };
    const reason = e.code === 'CSV_MAX_RECORD_SIZE' ? `the record at line ${e.lines} is longer than 1 MB: is a quote left open?` : e.message;
    throw new AppError('ERR_VALIDATION', `The file is not a readable CSV (${reason}).`);
  }
}

/**
 * The contact rows of a spreadsheet, numbered as the spreadsheet numbers them. The file is a Blob:
 * an upload the multipart parser holds, or a file on disk (`fs.openAsBlob`); an xlsx is read by
 * random access (its parts in the order the reader needs), a csv as one stream.
 */
export function readSpreadsheet(file: Blob, format: SpreadsheetFormat): AsyncGenerator<NumberedRow> {
  return toImportRows(format === 'xlsx' ? xlsxRows(file) : csvRows(file));
}
