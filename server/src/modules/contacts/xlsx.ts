// The rows of an .xlsx's first sheet, read as a stream: the package's parts come by random access
// (zip.ts), the shared-strings table is read first and kept (packed), then the sheet's XML is scanned as it
// inflates (xml-scanner.ts) and each finished <row> comes out as plain cells. Nothing else of the
// workbook (styles, formulas, other sheets) is read. Memory is the shared-strings table plus one
// inflated chunk of the sheet, whatever the row count and whatever order the writer stored the
// parts in (exceljs's own writer stores the sheet before its strings).
import path from 'node:path';
import type { Readable } from 'node:stream';
import { findZipEntry, openZipEntry, readZipEntries, type ZipEntry } from './zip.ts';
import { createXmlScanner, decodeXml, readAttr, type XmlHandler } from './xml-scanner.ts';

export type SheetRow = { row: number; cells: unknown[] };

// Excel's own limits. A file beyond them was not written by a spreadsheet program, and they bound
// what a crafted file (a few MB that inflate to GBs) can cost: text kept, rows scanned.
const MAX_CELL_CHARS = 32_767;
const MAX_ROWS = 1_048_576;
const MAX_COLUMNS = 16_384;
/** Text of the shared-strings table kept at most (a full 50 MB upload of unique strings stays under it). */
const MAX_SHARED_CHARS = 96 * 1024 * 1024;

const tooLong = () => new Error(`a cell holds more than ${MAX_CELL_CHARS.toLocaleString('en')} characters, the most Excel allows`);

type Package = { blob: Blob; entries: Map<string, ZipEntry> };

/** Feeds a part's text to the handler chunk by chunk; `between` runs after each chunk (to hand rows on). */
async function* scanPart(pkg: Package, entry: ZipEntry, handler: XmlHandler): AsyncGenerator<void> {
  const stream: Readable = await openZipEntry(pkg.blob, entry);
  stream.setEncoding('utf8');
  const scanner = createXmlScanner(handler);
  for await (const chunk of stream as AsyncIterable<string>) {
    scanner.write(chunk);
    yield;
  }
  scanner.end();
}

async function readWholePart(pkg: Package, entry: ZipEntry, handler: XmlHandler): Promise<void> {
  for await (const _ of scanPart(pkg, entry, handler));
}

/** The relationships of a part (`Id` → target path and type), targets resolved against the part's folder. */
async function readRelationships(pkg: Package, partPath: string): Promise<{ id: string; type: string; target: string }[]> {
  const dir = path.posix.dirname(partPath);
  const entry = findZipEntry(pkg.entries, path.posix.join(dir, '_rels', `${path.posix.basename(partPath)}.rels`));
  if (!entry) return [];
  const found: { id: string; type: string; target: string }[] = [];
  await readWholePart(pkg, entry, {
    open(name, attrs) {
      if (name !== 'Relationship') return;
      const target = readAttr(attrs, 'Target') ?? '';
      found.push({
        id: readAttr(attrs, 'Id') ?? '',
        type: readAttr(attrs, 'Type') ?? '',
        target: target.startsWith('/') ? target.slice(1) : path.posix.normalize(path.posix.join(dir === '.' ? '' : dir, target)),
      });
    },
    close() {},
    text() {},
  });
  return found;
}

/** Where the first sheet and the shared strings are, by the package's relationships. */
async function locateParts(pkg: Package): Promise<{ sheet: ZipEntry; sharedStrings?: ZipEntry }> {
  const rootRels = await readRelationships(pkg, '');
  const workbookPath = rootRels.find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
  const workbook = findZipEntry(pkg.entries, workbookPath);
  if (!workbook) throw new Error('no workbook in the package');
  let firstSheetId: string | undefined;
  await readWholePart(pkg, workbook, {
    open(name, attrs) {
      if (name === 'sheet' && firstSheetId === undefined) firstSheetId = readAttr(attrs, 'r:id') ?? '';
    },
    close() {},
    text() {},
  });
  const rels = await readRelationships(pkg, workbookPath);
  const sheetTarget = rels.find((r) => r.id === firstSheetId)?.target;
  const sheet = (sheetTarget && findZipEntry(pkg.entries, sheetTarget)) || findZipEntry(pkg.entries, 'xl/worksheets/sheet1.xml');
  if (!sheet) throw new Error('the workbook has no sheet');
  const stringsTarget = rels.find((r) => r.type.endsWith('/sharedStrings'))?.target ?? 'xl/sharedStrings.xml';
  return { sheet, sharedStrings: findZipEntry(pkg.entries, stringsTarget) };
}

/** OOXML writes characters XML cannot carry as `_xHHHH_` in strings. */
const unescapeOoxml = (s: string) => (s.includes('_x') ? s.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : s);

/**
 * Collects the text of string items: the `<t>` runs of each item, phonetic runs (`<rPh>`) left out.
 * Used for the shared strings (items `<si>`) and for inline strings in cells.
 */
function createStringCollector() {
  let depthRPh = 0;
  let capturing = false;
  let value = '';
  return {
    reset: () => ((value = ''), (capturing = false), (depthRPh = 0)),
    open(name: string, selfClosing: boolean) {
      if (name === 'rPh' && !selfClosing) depthRPh++;
      else if (name === 't' && depthRPh === 0 && !selfClosing) capturing = true;
    },
    close(name: string) {
      if (name === 'rPh') depthRPh--;
      else if (name === 't') capturing = false;
    },
    text(raw: string, cdata: boolean) {
      if (!capturing) return;
      value += cdata ? raw : decodeXml(raw);
      if (value.length > MAX_CELL_CHARS) throw tooLong();
    },
    value: () => unescapeOoxml(value),
  };
}

const BLOCK = 4096;

/**
 * The shared strings, packed: each block of 4,096 strings is one flat string plus their offsets.
 * An array of 300,000 separate strings (a 100,000-row sheet of unique names, numbers and emails)
 * took 22 MB of heap, mostly per-string headers and the inflated chunks they were sliced from;
 * packed it is about the text's own size. A lookup slices the string out again.
 */
class StringTable {
  private blocks: string[] = [];
  private offsets: Int32Array[] = [];
  private pending: string[] = [];
  private count = 0;

  private chars = 0;

  push(value: string) {
    this.chars += value.length;
    if (this.chars > MAX_SHARED_CHARS) throw new Error('the shared strings hold more text than an import takes (96 M characters)');
    this.pending.push(value);
    this.count++;
    if (this.pending.length === BLOCK) this.seal();
  }

  /** Packs the strings pushed since the last block into one. */
  seal() {
    if (this.pending.length === 0) return;
    const offsets = new Int32Array(this.pending.length + 1);
    for (let i = 0; i < this.pending.length; i++) offsets[i + 1] = offsets[i]! + this.pending[i]!.length;
    // join() builds a flat copy, so nothing keeps the scanner's chunks alive.
    this.blocks.push(this.pending.join(''));
    this.offsets.push(offsets);
    this.pending = [];
  }

  get(index: number): string | undefined {
    if (!(index >= 0 && index < this.count)) return undefined;
    const block = Math.floor(index / BLOCK);
    const at = index % BLOCK;
    if (block === this.blocks.length) return this.pending[at];
    const offsets = this.offsets[block]!;
    return this.blocks[block]!.slice(offsets[at]!, offsets[at + 1]!);
  }
}

async function readSharedStrings(pkg: Package, entry: ZipEntry | undefined): Promise<StringTable> {
  const strings = new StringTable();
  if (!entry) return strings;
  const item = createStringCollector();
  await readWholePart(pkg, entry, {
    open(name, _attrs, selfClosing) {
      if (name === 'si') {
        item.reset();
        if (selfClosing) strings.push('');
      } else item.open(name, selfClosing);
    },
    close(name) {
      if (name === 'si') strings.push(item.value());
      else item.close(name);
    },
    text: item.text,
  });
  strings.seal();
  return strings;
}

/** Column index (0-based) of a cell reference such as `AB12`; -1 when there is none. */
function columnOf(ref: string | undefined): number {
  if (!ref) return -1;
  let col = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20; // lower case
    if (c < 97 || c > 122) break;
    col = col * 26 + (c - 96);
  }
  return i === 0 ? -1 : col - 1;
}

/** A cell's value by its type: strings as text, numbers as numbers (digits-only kept as text, so long ones stay exact). */
function cellValue(type: string, text: string, strings: StringTable): unknown {
  switch (type) {
    case 's':
      return strings.get(Number(text)) ?? '';
    case 'inlineStr':
    case 'str':
      return text;
    case 'b':
      return text === '1' ? 'TRUE' : 'FALSE';
    case 'e':
      return '';
    case 'd':
      return text.slice(0, 10);
    default: {
      if (/^\d*$/.test(text)) return text;
      const n = Number(text);
      return Number.isFinite(n) ? n : text;
    }
  }
}

/** The rows of the workbook's first sheet, numbered as the sheet numbers them, cells by column (sparse). */
export async function* readXlsxRows(blob: Blob): AsyncGenerator<SheetRow> {
  const pkg: Package = { blob, entries: await readZipEntries(blob) };
  const parts = await locateParts(pkg);
  const strings = await readSharedStrings(pkg, parts.sharedStrings);
  const ready: SheetRow[] = [];
  let rowNumber = 0;
  let cells: unknown[] = [];
  let nextColumn = 0;
  let column = 0;
  let type = '';
  let value = '';
  let capturingValue = false;
  let inCell = false;
  const inline = createStringCollector();
  const handler: XmlHandler = {
    open(name, attrs, selfClosing) {
      if (name === 'c') {
        const at = columnOf(readAttr(attrs, 'r'));
        column = at < 0 ? nextColumn : at;
        if (column >= MAX_COLUMNS) throw new Error(`a cell lies beyond column ${MAX_COLUMNS.toLocaleString('en')}, the last Excel has`);
        nextColumn = column + 1;
        type = readAttr(attrs, 't') ?? 'n';
        value = '';
        inline.reset();
        inCell = !selfClosing;
      } else if (name === 'row') {
        const r = Number(readAttr(attrs, 'r'));
        rowNumber = Number.isInteger(r) && r > 0 ? r : rowNumber + 1;
        if (rowNumber > MAX_ROWS) throw new Error(`the sheet goes beyond row ${MAX_ROWS.toLocaleString('en')}, the last Excel has`);
        cells = [];
        nextColumn = 0;
        if (selfClosing) ready.push({ row: rowNumber, cells });
      } else if (inCell) {
        if (name === 'v') capturingValue = !selfClosing;
        else inline.open(name, selfClosing);
      }
    },
    close(name) {
      if (name === 'c') {
        if (inCell) cells[column] = cellValue(type, type === 'inlineStr' ? inline.value() : value, strings);
        inCell = false;
      } else if (name === 'row') ready.push({ row: rowNumber, cells });
      else if (name === 'v') capturingValue = false;
      else if (inCell) inline.close(name);
    },
    text(raw, cdata) {
      if (capturingValue) {
        value += cdata ? raw : decodeXml(raw);
        if (value.length > MAX_CELL_CHARS) throw tooLong();
      }
      else if (inCell) inline.text(raw, cdata);
    },
  };
  for await (const _ of scanPart(pkg, parts.sheet, handler)) {
    for (const row of ready) yield row;
    ready.length = 0;
  }
  for (const row of ready) yield row;
}
