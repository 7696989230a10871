// Contact spreadsheets generated at test (and benchmark) time into a temp folder: big files are
// never committed. Written with exceljs's streaming WorkbookWriter, so a 100,000-row file costs
// no more memory than a small one. Optional bad rows at fixed places, with the reasons the import
// must report for them.
import { createWriteStream, mkdtempSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';

export type GeneratedSheet = {
  file: string;
  /** Rows the import must create: data rows minus bad ones. */
  goodCount: number;
  /** The rows the import must refuse, by spreadsheet row number (row 1 holds the titles). */
  bad: { row: number; reason: string }[];
};

export type SheetOptions = { rows: number; badRows?: boolean; titles?: [string, string, string]; dir?: string; name?: string; numberOffset?: number };

/** The number of data row i: 13 digits, unique per i (and per offset, for a second company's file). */
export const numberOf = (i: number, offset = 0) => `55119${String(i + offset).padStart(8, '0')}`;

/** Row i of the sheet; every 1,000 rows a few are spoiled in the ways people spoil spreadsheets. */
function rowOf(i: number, badRows: boolean, offset: number): { cells: [string, string | number, string]; reason?: string } {
  const good: [string, string | number, string] = [`Contato ${i}`, numberOf(i, offset), `c${i}@example.test`];
  if (!badRows) return { cells: good };
  switch (i % 1000) {
    case 7:
      return { cells: ['', good[1], good[2]], reason: 'Name is missing' };
    case 13:
      return { cells: ['A', good[1], good[2]], reason: 'Name is too short (2 to 50 characters)' };
    case 21:
      return { cells: [good[0], 'call me', good[2]], reason: 'Invalid number (8 to 50 digits)' };
    case 22:
      return { cells: [good[0], '12-34', good[2]], reason: 'Invalid number (8 to 50 digits)' };
    case 42:
      return { cells: [good[0], numberOf(i - 1, offset), good[2]], reason: 'Duplicated number in this file' };
    case 99:
      return { cells: [good[0], good[1], 'not-an-email'], reason: 'Invalid email' };
    case 500:
      // A formatted number (mask, spaces) and a number cell are both fine.
      return { cells: [good[0], `+55 (11) 9${good[1].toString().slice(5, 9)}-${good[1].toString().slice(9)}`, good[2]] };
    case 501:
      return { cells: [good[0], Number(good[1]), good[2]] };
    default:
      return { cells: good };
  }
}

function plan(opts: SheetOptions) {
  const dir = opts.dir ?? mkdtempSync(path.join(tmpdir(), 'zapdesk-sheet-'));
  const bad: GeneratedSheet['bad'] = [];
  return { dir, bad, offset: opts.numberOffset ?? 0, badRows: opts.badRows ?? false };
}

export async function generateXlsx(opts: SheetOptions): Promise<GeneratedSheet> {
  const { dir, bad, offset, badRows } = plan(opts);
  const file = path.join(dir, opts.name ?? `contacts-${opts.rows}.xlsx`);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: false });
  const sheet = workbook.addWorksheet('Contatos');
  sheet.addRow(opts.titles ?? ['Nome', 'Número', 'E-mail']).commit();
  for (let i = 0; i < opts.rows; i++) {
    const { cells, reason } = rowOf(i, badRows, offset);
    if (reason) bad.push({ row: i + 2, reason });
    sheet.addRow(cells).commit();
  }
  sheet.commit();
  await workbook.commit();
  return { file, goodCount: opts.rows - bad.length, bad };
}

const csvField = (v: string | number) => (/[;,"\r\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));

export async function generateCsv(opts: SheetOptions & { delimiter?: string }): Promise<GeneratedSheet> {
  const { dir, bad, offset, badRows } = plan(opts);
  const file = path.join(dir, opts.name ?? `contacts-${opts.rows}.csv`);
  const out = createWriteStream(file);
  const d = opts.delimiter ?? ',';
  const line = (cells: (string | number)[]) => `${cells.map(csvField).join(d)}\n`;
  out.write(line(opts.titles ?? ['name', 'number', 'email']));
  for (let i = 0; i < opts.rows; i++) {
    const { cells, reason } = rowOf(i, badRows, offset);
    if (reason) bad.push({ row: i + 2, reason });
    if (!out.write(line(cells))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { file, goodCount: opts.rows - bad.length, bad };
}
