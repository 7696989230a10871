// Streaming readers of contact spreadsheets: rows come out one at a time, whatever the file's
// size. xlsx through exceljs's WorkbookReader (SAX over the zip, first sheet only), csv through
// csv-parse with the separator guessed from the title line (`;` as in our own export, `,` or tab).
import { Readable } from 'node:stream';
import { AppError, findContactColumns, pickContactCells, POSITIONAL_COLUMNS, type ContactColumns } from '@zapdesk/sync';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import type { NumberedRow } from './import-batch.ts';

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

/** An exceljs cell value as plain text or number: rich text, hyperlinks (emails) and formula results unwrapped. */
function plainCell(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  const v = value as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: unknown };
  if (Array.isArray(v.richText)) return v.richText.map((p) => p.text).join('');
  if (v.text !== undefined) return plainCell(v.text);
  if (v.result !== undefined) return plainCell(v.result);
  return '';
}

const isBlank = (cells: readonly unknown[]) => cells.every((c) => c === undefined || c === null || String(c).trim() === '');

/**
 * Rows of a sheet as import rows. The first non-blank row names the columns; when none of its
 * titles is known the sheet has no title row and columns are name, number, email.
 */
async function* toImportRows(rows: AsyncIterable<{ row: number; cells: unknown[] }>): AsyncGenerator<NumberedRow> {
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

async function* xlsxRows(input: Readable): AsyncGenerator<{ row: number; cells: unknown[] }> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(input, { sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'ignore', worksheets: 'emit', entries: 'ignore' });
  try {
    for await (const sheet of workbook) {
      for await (const row of sheet) {
        // row.values is 1-based and sparse: index 1 is column A.
        const values = (row as ExcelJS.Row).values as unknown[];
        const cells: unknown[] = [];
        for (let i = 1; i < values.length; i++) cells.push(plainCell(values[i]));
        yield { row: (row as ExcelJS.Row).number, cells };
      }
      return; // the first sheet only: later ones are notes, pivots, lookups
    }
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

async function* csvRows(input: Readable): AsyncGenerator<{ row: number; cells: unknown[] }> {
  // Peek at the start of the stream for the separator, then hand every byte to the parser.
  const chunks: Buffer[] = [];
  const iterator = input[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  let head = '';
  for (;;) {
    const next = await iterator.next();
    if (next.done) break;
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    chunks.push(chunk);
    head += chunk.toString('utf8');
    if (/[\r\n]/.test(head) || head.length > 64 * 1024) break;
  }
  const delimiter = guessDelimiter(head.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '');
  async function* rest() {
    yield* chunks;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  const parser = Readable.from(rest()).pipe(
    parse({ bom: true, delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, trim: true, info: true }),
  );
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      yield { row: item.info.lines, cells: item.record };
    }
  } catch (err) {
    throw new AppError('ERR_VALIDATION', `The file is not a readable CSV (${(err as Error).message}).`);
  }
}

/** The contact rows of a spreadsheet stream, numbered as the spreadsheet numbers them. */
export function readSpreadsheet(input: Readable, format: SpreadsheetFormat): AsyncGenerator<NumberedRow> {
  return toImportRows(format === 'xlsx' ? xlsxRows(input) : csvRows(input));
}
