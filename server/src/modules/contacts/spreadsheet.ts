// Streaming readers of contact spreadsheets: rows come out one at a time, whatever the file's
// size. xlsx through our streaming reader (xlsx.ts: first sheet only), Excel 97-2003 (.xls) through
// xls.ts (first worksheet; the two are told apart by their first bytes, whatever the name says),
// csv through csv-parse with the separator guessed from the title line (`;` as in our own export,
// `,` or tab).
import { Readable } from 'node:stream';
import { AppError, findContactColumns, pickContactCells, POSITIONAL_COLUMNS, type ContactColumns } from '@zapdesk/sync';
import { parse } from 'csv-parse';
import type { NumberedRow } from './import-batch.ts';
import { isCompoundFile, readXlsRows } from './xls.ts';
import { readXlsxRows, type SheetRow } from './xlsx.ts';
import { readBlobSlices } from './zip.ts';

/** A workbook's (xlsx, xls) own first bytes have the last word: a zip is an .xlsx, a Compound File an .xls. */
export type SpreadsheetFormat = 'xlsx' | 'xls' | 'csv';

/** The format of an upload by its file name, else its content type. */
export function detectFormat(fileName = '', contentType = ''): SpreadsheetFormat | undefined {
  if (/\.xlsx$/i.test(fileName)) return 'xlsx';
  if (/\.xls$/i.test(fileName)) return 'xls';
  if (/\.(csv|txt)$/i.test(fileName)) return 'csv';
  if (/spreadsheetml/i.test(contentType)) return 'xlsx';
  if (/ms-excel/i.test(contentType)) return 'xls';
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

/** A file that arrives as a stream (an upload): an xlsx is a zip, read from its end, so it is held first. */
export type SpreadsheetSource = Blob | AsyncIterable<Uint8Array>;

async function toBlob(source: SpreadsheetSource): Promise<Blob> {
  if (source instanceof Blob) return source;
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return new Blob(chunks as BlobPart[]);
}

async function* workbookRows(source: SpreadsheetSource, named: 'xlsx' | 'xls'): AsyncGenerator<SheetRow> {
  const blob = await toBlob(source);
  const head = new Uint8Array(await blob.slice(0, 8).arrayBuffer());
  const zip = head[0] === 0x50 && head[1] === 0x4b;
  const legacy = isCompoundFile(head) || (named === 'xls' && !zip);
  try {
    if (legacy) yield* readXlsRows(Buffer.from(await blob.arrayBuffer()));
    else yield* readXlsxRows(blob);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('ERR_VALIDATION', `The file is not a readable ${legacy ? '.xls' : '.xlsx'} spreadsheet (${(err as Error).message}).`);
  }
}

/** `;`, `,` or tab: whichever the title line holds most of, outside quotes. */
function guessDelimiter(firstLine: string): string {
  const unquoted = firstLine.replace(/"[^"]*"/g, '');
  const counts = [';', ',', '\t'].map((d) => [d, unquoted.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0]![1] > 0 ? counts[0]![0] : ',';
}

/** The first bytes of a stream (up to a line break or 64 KB) and a stream of all of its bytes. */
async function peekHead(source: AsyncIterable<Uint8Array>): Promise<{ head: string; bytes: AsyncIterable<Uint8Array> }> {
  const iterator = source[Symbol.asyncIterator]();
  const first: Uint8Array[] = [];
  let size = 0;
  while (size < 64 * 1024) {
    const next = await iterator.next();
    if (next.done) break;
    first.push(next.value);
    size += next.value.byteLength;
    if (next.value.includes(10)) break;
  }
  async function* bytes() {
    yield* first;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { head: Buffer.concat(first).toString('utf8'), bytes: bytes() };
}

async function* csvRows(source: SpreadsheetSource): AsyncGenerator<SheetRow> {
  // The separator is guessed from the title line, within the first 64 KB.
  const { head, bytes } =
    source instanceof Blob ? { head: Buffer.from(await source.slice(0, 64 * 1024).arrayBuffer()).toString('utf8'), bytes: readBlobSlices(source) } : await peekHead(source);
  const delimiter = guessDelimiter(head.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '');
  // A record past 1 MB is not a contact row (a quote never closed swallows the rest of the file).
  const parser = parse({ bom: true, delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, trim: true, info: true, max_record_size: 1024 * 1024 });
  // pipe() does not pass a source's error on: an upload cut short would leave the parser waiting.
  const bytesIn = Readable.from(bytes, { objectMode: false }).on('error', (err) => parser.destroy(err));
  bytesIn.pipe(parser);
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      yield { row: item.info.lines, cells: item.record };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as Error & { code?: string; lines?: number };
    const reason = e.code === 'CSV_MAX_RECORD_SIZE' ? `the record at line ${e.lines} is longer than 1 MB: is a quote left open?` : e.message;
    throw new AppError('ERR_VALIDATION', `The file is not a readable CSV (${reason}).`);
  }
}

/**
 * The contact rows of a spreadsheet, numbered as the spreadsheet numbers them. The file is a Blob
 * (a file on disk, `fs.openAsBlob`) or the bytes of an upload as they arrive (upload.ts); an xlsx
 * is read by random access (its parts in the order the reader needs), a csv as one stream.
 */
export function readSpreadsheet(file: SpreadsheetSource, format: SpreadsheetFormat): AsyncGenerator<NumberedRow> {
  return toImportRows(format === 'csv' ? csvRows(file) : workbookRows(file, format));
}
