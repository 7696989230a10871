// The .xls reader: a workbook SheetJS wrote (fixtures/spreadsheets), and workbooks built here record
// by record as [MS-CFB] and [MS-XLS] lay them out, for what Excel and LibreOffice write and SheetJS
// does not: shared strings continued across records (with the width of the characters changing),
// rich and phonetic strings, RK and MULRK numbers, formulas with text results, booleans and errors,
// a Workbook stream past the mini stream's 4 KB, and the files it must refuse with a reason.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isCompoundFile, readXlsRows } from './xls.ts';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../fixtures/spreadsheets');

// ── A Compound File with the given streams (512-byte sectors, small streams in the mini stream) ──

const END = 0xfffffffe;
const FREE = 0xffffffff;

function compoundFile(streams: { name: string; data: Buffer }[]): Buffer {
  const sectors: Buffer[] = [];
  const fat: number[] = [];
  const allocate = (data: Buffer) => {
    if (data.length === 0) return END;
    const start = sectors.length;
    const count = Math.ceil(data.length / 512);
    for (let i = 0; i < count; i++) {
      const s = Buffer.alloc(512);
      data.copy(s, 0, i * 512, Math.min(data.length, (i + 1) * 512));
      sectors.push(s);
      fat.push(i === count - 1 ? END : start + i + 1);
    }
    return start;
  };
  const starts = new Map<string, number>();
  const miniParts: Buffer[] = [];
  const miniFat: number[] = [];
  for (const s of streams) {
    if (s.data.length >= 4096) {
      starts.set(s.name, allocate(s.data));
      continue;
    }
    const start = miniFat.length;
    const count = Math.max(1, Math.ceil(s.data.length / 64));
    for (let i = 0; i < count; i++) miniFat.push(i === count - 1 ? END : start + i + 1);
    const padded = Buffer.alloc(count * 64);
    s.data.copy(padded);
    miniParts.push(padded);
    starts.set(s.name, start);
  }
  const mini = Buffer.concat(miniParts);
  const rootStart = allocate(mini);
  const miniFatBytes = Buffer.alloc(Math.ceil((miniFat.length * 4) / 512) * 512, 0xff);
  miniFat.forEach((n, i) => miniFatBytes.writeUInt32LE(n, 4 * i));
  const miniFatStart = miniFat.length ? allocate(miniFatBytes) : END;

  const entry = (name: string, type: number, start: number, size: number, right: number, child: number) => {
    const e = Buffer.alloc(128);
    e.write(name, 0, 'utf16le');
    e.writeUInt16LE((name.length + 1) * 2, 0x40);
    e[0x42] = type;
    e[0x43] = 1;
    e.writeUInt32LE(FREE, 0x44);
    e.writeUInt32LE(right, 0x48);
    e.writeUInt32LE(child, 0x4c);
    e.writeUInt32LE(start, 0x74);
    e.writeUInt32LE(size, 0x78);
    return e;
  };
  const dir = [entry('Root Entry', 5, rootStart, mini.length, FREE, streams.length ? 1 : FREE)];
  streams.forEach((s, i) => dir.push(entry(s.name, 2, starts.get(s.name)!, s.data.length, i + 1 < streams.length ? i + 2 : FREE, FREE)));
  const dirStart = allocate(Buffer.concat(dir));

  // The FAT's own sectors come last, marked as such in it.
  let fatSectors = 1;
  while ((sectors.length + fatSectors) > fatSectors * 128) fatSectors++;
  const firstFat = sectors.length;
  for (let i = 0; i < fatSectors; i++) fat.push(0xfffffffd);
  const fatBytes = Buffer.alloc(fatSectors * 512, 0xff);
  fat.forEach((n, i) => fatBytes.writeUInt32LE(n, 4 * i));
  for (let i = 0; i < fatSectors; i++) sectors.push(fatBytes.subarray(i * 512, (i + 1) * 512));

  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(3, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(9, 0x1e);
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(fatSectors, 0x2c);
  header.writeUInt32LE(dirStart, 0x30);
  header.writeUInt32LE(4096, 0x38);
  header.writeUInt32LE(miniFatStart, 0x3c);
  header.writeUInt32LE(miniFatBytes.length / 512, 0x40);
  header.writeUInt32LE(END, 0x44);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i < fatSectors ? firstFat + i : FREE, 0x4c + 4 * i);
  return Buffer.concat([header, ...sectors]);
}

// ── BIFF8 records ──

const u16 = (n: number) => Buffer.from([n & 0xff, n >> 8]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const i32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32LE(n);
  return b;
};
const f64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(n);
  return b;
};
const rec = (type: number, ...parts: Buffer[]) => {
  const data = Buffer.concat(parts);
  return Buffer.concat([u16(type), u16(data.length), data]);
};
const cell = (row: number, col: number) => Buffer.concat([u16(row), u16(col), u16(15)]);
/** An XLUnicodeString: 16-bit count, flags, characters one byte each or two. */
const xlString = (text: string, wide = [...text].some((ch) => ch.charCodeAt(0) > 0xff)) => Buffer.concat([u16(text.length), Buffer.from([wide ? 1 : 0]), Buffer.from(text, wide ? 'utf16le' : 'latin1')]);

const BOF = (dt: number) => rec(0x0809, u16(0x0600), u16(dt), u16(0), u16(1997), u32(0), u32(0x0600));
const EOF = rec(0x000a);
const RK_INT = (n: number) => (n << 2) | 2;

/** A workbook: globals (with the given records), one worksheet "Sheet1" of the given cell records. */
function workbook(globals: Buffer[], cells: Buffer[], opts: { sheetType?: number; before?: { name: string; type: number }[] } = {}): Buffer {
  const sheet = Buffer.concat([BOF(0x10), ...cells, EOF]);
  const boundsheet = (pos: number, name: string, type: number) => rec(0x0085, u32(pos), Buffer.from([0, type, name.length, 0]), Buffer.from(name, 'latin1'));
  const sheets = [...(opts.before ?? []), { name: 'Sheet1', type: opts.sheetType ?? 0 }];
  const head = (pos: number) => Buffer.concat([BOF(0x05), ...globals, ...sheets.map((s) => boundsheet(pos, s.name, s.type)), EOF]);
  const globalsLength = head(0).length;
  return Buffer.concat([head(globalsLength), sheet]);
}

const xls = (stream: Buffer, name = 'Workbook') => compoundFile([{ name, data: stream }]);

describe('.xls reader', () => {
  it('reads a workbook SheetJS wrote: its first sheet only, text, numbers and blank rows as xlsx gives them', () => {
    const file = readFileSync(path.join(FIXTURES, 'contacts-sheetjs.xls'));
    expect(isCompoundFile(file)).toBe(true);
    expect(readXlsRows(file)).toEqual([
      { row: 1, cells: ['Nome', 'Número', 'Email'] },
      { row: 2, cells: ['João Conceição', 5511988887777, 'joao@example.com', 3.25] },
      { row: 3, cells: ['Zoë 北京', '+55 (21) 97777-6666', ''] },
      { row: 5, cells: ['Ana', 5531966665555] },
    ]);
  });

  it('reads shared strings continued across records, where the characters may change width, and skips rich and phonetic runs', () => {
    const long = 'Conceição '.repeat(30);
    // The SST: a plain string, a rich one (2 runs), one with phonetic data, then `long` whose
    // characters go on in a CONTINUE record that switches them to two bytes each.
    const plain = xlString('Nome');
    const rich = Buffer.concat([u16(3), Buffer.from([0x08]), u16(2), Buffer.from('Ana', 'latin1'), Buffer.alloc(8, 7)]);
    const phonetic = Buffer.concat([u16(2), Buffer.from([0x04]), u32(6), Buffer.from('Bo', 'latin1'), Buffer.alloc(6, 9)]);
    const split = 100;
    const longHead = Buffer.concat([u16(long.length), Buffer.from([0]), Buffer.from(long.slice(0, split), 'latin1')]);
    const longTail = Buffer.concat([Buffer.from([1]), Buffer.from(long.slice(split), 'utf16le')]);
    // A string that starts right at the next record: no flags byte of the continuation before it.
    const after = xlString('Zoë 北京');
    const sst = rec(0x00fc, u32(6), u32(5), plain, rich, phonetic, longHead);
    const cont = rec(0x003c, longTail, after);
    const cells = [0, 1, 2, 3, 4].map((i) => rec(0x00fd, cell(i, 0), u32(i)));
    expect(readXlsRows(xls(workbook([sst, cont], cells)))).toEqual([
      { row: 1, cells: ['Nome'] },
      { row: 2, cells: ['Ana'] },
      { row: 3, cells: ['Bo'] },
      { row: 4, cells: [long] },
      { row: 5, cells: ['Zoë 北京'] },
    ]);
  });

  it('reads RK and MULRK numbers, inline labels, formulas with their last value, booleans and errors', () => {
    const doubleRk = (n: number) => f64(n).readInt32LE(4);
    const cells = [
      rec(0x027e, cell(0, 0), i32(RK_INT(42))),
      rec(0x027e, cell(0, 1), i32(RK_INT(1234) | 1)),
      rec(0x027e, cell(0, 2), i32(doubleRk(1.5))),
      rec(0x027e, cell(0, 3), i32(RK_INT(-7))),
      // MULRK: columns 1..3 of row 1, then the last column's index.
      rec(0x00bd, u16(1), u16(1), u16(15), i32(RK_INT(1)), u16(15), i32(RK_INT(2) | 1), u16(15), i32(doubleRk(-2.5)), u16(3)),
      rec(0x0204, cell(2, 0), xlString('Rita')),
      rec(0x0204, cell(2, 1), xlString('Conceição 北京')),
      rec(0x0203, cell(2, 2), f64(5511988887777)),
      // A formula whose value is text: the text comes in the STRING record after it.
      rec(0x0006, cell(3, 0), Buffer.from([0, 0, 0, 0, 0, 0, 0xff, 0xff]), u16(0), u32(0), u16(0)),
      rec(0x0207, xlString('=A1&"x"')),
      rec(0x0006, cell(3, 1), f64(99.5), u16(0), u32(0), u16(0)),
      rec(0x0006, cell(3, 2), Buffer.from([1, 0, 1, 0, 0, 0, 0xff, 0xff]), u16(0), u32(0), u16(0)),
      rec(0x0006, cell(3, 3), Buffer.from([3, 0, 0, 0, 0, 0, 0xff, 0xff]), u16(0), u32(0), u16(0)),
      rec(0x0205, cell(4, 0), Buffer.from([1, 0])),
      rec(0x0205, cell(4, 1), Buffer.from([0, 0])),
      rec(0x0205, cell(4, 2), Buffer.from([0x07, 1])),
    ];
    expect(readXlsRows(xls(workbook([], cells)))).toEqual([
      { row: 1, cells: [42, 12.34, 1.5, -7] },
      { row: 2, cells: [undefined, 1, 0.02, -2.5] },
      { row: 3, cells: ['Rita', 'Conceição 北京', 5511988887777] },
      { row: 4, cells: ['=A1&"x"', 99.5, 'TRUE', ''] },
      { row: 5, cells: ['TRUE', 'FALSE', ''] },
    ]);
  });

  it('reads a Workbook stream too big for the mini stream, rows in order whatever the order of their records, and the first worksheet after a chart', () => {
    const labels = Array.from({ length: 600 }, (_, i) => rec(0x0204, cell(599 - i, 0), xlString(`Contato ${599 - i}`)));
    const numbers = Array.from({ length: 600 }, (_, i) => rec(0x0203, cell(i, 1), f64(5511900000000 + i)));
    const stream = workbook([], [...labels, ...numbers], { before: [{ name: 'Chart1', type: 2 }] });
    expect(stream.length).toBeGreaterThan(4096);
    const rows = readXlsRows(xls(stream));
    expect(rows).toHaveLength(600);
    expect(rows[0]).toEqual({ row: 1, cells: ['Contato 0', 5511900000000] });
    expect(rows[599]).toEqual({ row: 600, cells: ['Contato 599', 5511900000599] });
  });

  it('refuses with a reason what it cannot read', () => {
    const read = (file: Buffer) => {
      try {
        readXlsRows(file);
        return 'read';
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(read(Buffer.from('PK\u0003\u0004 a zip'))).toBe('it is not an Excel 97-2003 workbook');
    expect(read(Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(100)]))).toBe('it is not an Excel 97-2003 workbook');
    // An .xlsx saved with a password is a Compound File too.
    expect(read(compoundFile([{ name: 'EncryptionInfo', data: Buffer.alloc(10) }, { name: 'EncryptedPackage', data: Buffer.alloc(10) }]))).toContain('protected by a password');
    expect(read(xls(workbook([rec(0x002f, Buffer.alloc(6))], [])))).toContain('protected by a password');
    expect(read(xls(Buffer.concat([rec(0x0809, u16(0x0500), u16(5)), EOF]), 'Book'))).toContain('Excel 5 or older');
    expect(read(xls(Buffer.concat([rec(0x0809, u16(0x0500), u16(5)), EOF])))).toContain('BIFF8');
    expect(read(xls(Buffer.concat([BOF(5), EOF])))).toBe('it has no worksheet');
    expect(read(xls(workbook([], [], { sheetType: 2 })))).toBe('it has no worksheet');
    const cut = workbook([], [rec(0x0204, cell(0, 0), xlString('Ana'))]);
    expect(read(xls(cut.subarray(0, cut.length - 6)))).toBe('a record runs past the end of the workbook');
    expect(read(xls(workbook([rec(0x00fc, u32(2), u32(2), xlString('Ana'))], [])))).toBe('the shared strings end early');
  });

  it('refuses a damaged file with its own reason, never a crash of the reader (3,000 corruptions of a real workbook)', () => {
    const original = readFileSync(path.join(FIXTURES, 'contacts-sheetjs.xls'));
    // A fixed linear congruential sequence: the same corruptions on every run.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const outcomes = { read: 0, refused: 0 };
    for (let i = 0; i < 3_000; i++) {
      const bytes = Buffer.from(original);
      for (let k = 1 + Math.floor(next() * 8); k > 0; k--) bytes[Math.floor(next() * bytes.length)] = Math.floor(next() * 256);
      const file = next() < 0.2 ? bytes.subarray(0, Math.floor(next() * bytes.length)) : bytes;
      try {
        readXlsRows(file);
        outcomes.read++;
      } catch (err) {
        // The reader's own refusals are plain Errors; a RangeError or TypeError would be a bug of its bounds checks.
        expect((err as Error).constructor).toBe(Error);
        outcomes.refused++;
      }
    }
    // Most corruptions land in cells or padding and still read; many break the file's structure.
    expect(outcomes.read).toBeGreaterThan(500);
    expect(outcomes.refused).toBeGreaterThan(500);
  });
});
