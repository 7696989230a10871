// Reads the first sheet of an .xlsx in the browser (spec/02 §5: contact import takes only .xlsx) into
// rows keyed by the title row, the shape POST /contacts/upload takes. An .xlsx is a zip of XML parts:
// fflate (8 kB) unzips it; the few elements a sheet's cells use are read with regular expressions,
// so the reader also runs in Node for its tests.
import { strFromU8, unzipSync } from 'fflate';

export type SheetRecord = Record<string, string | number>;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? whole;
  });
}

/** The text of an <si> or <is> element: its <t> runs joined (rich text splits one string into runs). */
function runsText(xml: string): string {
  return [...xml.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)].map((m) => decodeXml(m[1] ?? '')).join('');
}

/** "B12" → column 1 (zero-based). */
export function columnIndex(ref: string): number {
  let n = 0;
  for (const ch of ref.replace(/\d+$/, '').toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** The path of the workbook's first sheet, by the workbook's relationships (not always sheet1.xml). */
function firstSheetPath(files: Record<string, Uint8Array>): string {
  const workbook = files['xl/workbook.xml'];
  const rels = files['xl/_rels/workbook.xml.rels'];
  if (workbook && rels) {
    const rid = /<sheet\b[^>]*\br:id="([^"]+)"/.exec(strFromU8(workbook))?.[1];
    const target = rid ? new RegExp(`<Relationship\\b[^>]*\\bId="${rid}"[^>]*\\bTarget="([^"]+)"`).exec(strFromU8(rels))?.[1] : undefined;
    const alt = rid ? new RegExp(`<Relationship\\b[^>]*\\bTarget="([^"]+)"[^>]*\\bId="${rid}"`).exec(strFromU8(rels))?.[1] : undefined;
    const path = target ?? alt;
    if (path) return path.startsWith('/') ? path.slice(1) : `xl/${path}`;
  }
  return 'xl/worksheets/sheet1.xml';
}

/** Every row of the first sheet as an array of cells (strings or numbers), holes as ''. */
export function readSheetCells(data: Uint8Array): (string | number)[][] {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(data, { filter: (f) => f.name.startsWith('xl/') });
  } catch {
    throw new Error('not-xlsx');
  }
  const sheet = files[firstSheetPath(files)];
  if (!sheet) throw new Error('not-xlsx');
  const sharedXml = files['xl/sharedStrings.xml'];
  const shared = sharedXml ? [...strFromU8(sharedXml).matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) => runsText(m[1] ?? '')) : [];
  const rows: (string | number)[][] = [];
  for (const row of strFromU8(sheet).matchAll(/<row\b[^>]*?(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    const cells: (string | number)[] = [];
    for (const cell of (row[1] ?? '').matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attrs = cell[1] ?? '';
      const inner = cell[2] ?? '';
      const ref = /\br="([A-Z]+\d+)"/.exec(attrs)?.[1];
      const type = /\bt="(\w+)"/.exec(attrs)?.[1];
      const raw = /<v>([\s\S]*?)<\/v>/.exec(inner)?.[1];
      let value: string | number = '';
      if (type === 's') value = shared[Number(raw)] ?? '';
      else if (type === 'inlineStr') value = runsText(inner);
      else if (type === 'str' || type === 'e') value = decodeXml(raw ?? '');
      else if (type === 'b') value = raw === '1' ? 'TRUE' : 'FALSE';
      else if (raw !== undefined) value = Number.isFinite(Number(raw)) ? Number(raw) : decodeXml(raw);
      const at = ref ? columnIndex(ref) : cells.length;
      while (cells.length < at) cells.push('');
      cells[at] = value;
    }
    rows.push(cells);
  }
  return rows;
}

/** The sheet's rows keyed by the first row's titles, blank rows dropped (sheet_to_json's shape). */
export function readSheetRecords(data: Uint8Array): SheetRecord[] {
  const [titles = [], ...body] = readSheetCells(data);
  const keys = titles.map((t, i) => (String(t).trim() === '' ? `column${i + 1}` : String(t).trim()));
  return body
    .filter((cells) => cells.some((c) => String(c).trim() !== ''))
    .map((cells) => Object.fromEntries(keys.map((k, i) => [k, cells[i] ?? ''])));
}
