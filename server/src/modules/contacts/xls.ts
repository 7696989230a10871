// Reader of legacy Excel workbooks (.xls, Excel 97-2003): a BIFF8 "Workbook" stream inside a
// Compound File ([MS-CFB]), records as [MS-XLS] lays them out. For contact imports (spec/03: lists
// import .xls and .xlsx): the first worksheet's cells by row, as readXlsxRows gives them: text as
// text, numbers as numbers, booleans as TRUE/FALSE, errors empty; no styles (a date is its serial
// number, as in xlsx). The whole file is in memory (an .xls holds at most 65,536 rows of 256 columns).
import type { SheetRow } from './xlsx.ts';

const SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** Whether the bytes start as a Compound File (an .xls, or an Office file protected by a password). */
export function isCompoundFile(head: Uint8Array): boolean {
  return head.length >= SIGNATURE.length && SIGNATURE.every((b, i) => head[i] === b);
}

// ── Compound File ──────────────────────────────────────────────────────────────────────────────

const END_OF_CHAIN = 0xfffffffe;
const FREE = 0xffffffff;
const MAX_REGULAR = 0xfffffffa;

type Entry = { name: string; type: number; start: number; size: number };

/** The named streams of a Compound File, read on demand. */
function openCompoundFile(buf: Buffer) {
  if (buf.length < 512 || !isCompoundFile(buf)) throw new Error('it is not an Excel 97-2003 workbook');
  const sectorShift = buf.readUInt16LE(0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) throw new Error(`unknown sector size 2^${sectorShift}`);
  const sectorSize = 1 << sectorShift;
  const miniSize = 1 << buf.readUInt16LE(0x20);
  const miniCutoff = buf.readUInt32LE(0x38);
  const sectorCount = Math.floor(buf.length / sectorSize) - 1;
  const sector = (n: number) => {
    if (n > MAX_REGULAR || n >= sectorCount) throw new Error(`sector ${n} lies outside the file`);
    return buf.subarray((n + 1) * sectorSize, (n + 2) * sectorSize);
  };

  // The FAT's own sectors: 109 named in the header, the rest in the DIFAT chain.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i++) fatSectors.push(buf.readUInt32LE(0x4c + 4 * i));
  for (let n = buf.readUInt32LE(0x44), hops = 0; n <= MAX_REGULAR; hops++) {
    if (hops > sectorCount) throw new Error('its sector table loops');
    const s = sector(n);
    for (let i = 0; i < sectorSize / 4 - 1; i++) fatSectors.push(s.readUInt32LE(4 * i));
    n = s.readUInt32LE(sectorSize - 4);
  }
  const fatCount = buf.readUInt32LE(0x2c);
  const fat = Buffer.concat(fatSectors.filter((n) => n !== FREE).slice(0, fatCount).map(sector));
  const next = (table: Buffer, n: number) => (4 * n + 4 <= table.length ? table.readUInt32LE(4 * n) : END_OF_CHAIN);

  /** The sectors of a chain, in order (a loop or a chain off the table is refused). */
  const chain = (table: Buffer, start: number, limit: number) => {
    const out: number[] = [];
    for (let n = start; n !== END_OF_CHAIN; n = next(table, n)) {
      if (n > MAX_REGULAR || out.length > limit) throw new Error('a stream chain is broken');
      out.push(n);
    }
    return out;
  };
  const regular = (start: number, size?: number) => {
    const data = Buffer.concat(chain(fat, start, sectorCount).map(sector));
    return size === undefined ? data : data.subarray(0, size);
  };

  const directory = regular(buf.readUInt32LE(0x30));
  const entries: Entry[] = [];
  for (let at = 0; at + 128 <= directory.length; at += 128) {
    const nameBytes = Math.min(64, directory.readUInt16LE(at + 0x40));
    const name = directory.toString('utf16le', at, at + Math.max(0, nameBytes - 2));
    // Version 3 files keep only the low 32 bits of the size meaningful.
    const size = sectorShift === 9 ? directory.readUInt32LE(at + 0x78) : Number(directory.readBigUInt64LE(at + 0x78));
    entries.push({ name, type: directory[at + 0x42]!, start: directory.readUInt32LE(at + 0x74), size });
  }
  const root = entries[0];
  if (root?.type !== 5) throw new Error('it has no root entry');
  let mini: { stream: Buffer; table: Buffer } | undefined;
  const miniStream = () =>
    (mini ??= {
      stream: regular(root.start, root.size),
      table: buf.readUInt32LE(0x3c) > MAX_REGULAR ? Buffer.alloc(0) : regular(buf.readUInt32LE(0x3c)),
    });

  /** A stream entry (type 2) by name, as Compound Files compare names: regardless of case. */
  const streamEntry = (name: string) => entries.find((e) => e.type === 2 && e.name.toLowerCase() === name.toLowerCase());
  return {
    has: (name: string) => streamEntry(name) !== undefined,
    read(name: string): Buffer | undefined {
      const entry = streamEntry(name);
      if (!entry) return undefined;
      if (entry.size >= miniCutoff) return regular(entry.start, entry.size);
      // A small stream lives in the mini stream, in 64-byte sectors of its own table.
      const { stream, table } = miniStream();
      const parts = chain(table, entry.start, stream.length / miniSize).map((n) => {
        if ((n + 1) * miniSize > stream.length) throw new Error('a small stream lies outside the mini stream');
        return stream.subarray(n * miniSize, (n + 1) * miniSize);
      });
      return Buffer.concat(parts).subarray(0, entry.size);
    },
  };
}

// ── BIFF8 records ──────────────────────────────────────────────────────────────────────────────

const BOF = 0x0809;
const EOF = 0x000a;
const FILEPASS = 0x002f;
const BOUNDSHEET = 0x0085;
const SST = 0x00fc;
const CONTINUE = 0x003c;
const LABELSST = 0x00fd;
const LABEL = 0x0204;
const RSTRING = 0x00d6;
const NUMBER = 0x0203;
const RK = 0x027e;
const MULRK = 0x00bd;
const BOOLERR = 0x0205;
const FORMULA = 0x0006;
const STRING = 0x0207;

type Record = { type: number; data: Buffer };

function* records(stream: Buffer, from: number): Generator<Record> {
  for (let at = from; at + 4 <= stream.length; ) {
    const type = stream.readUInt16LE(at);
    const length = stream.readUInt16LE(at + 2);
    if (at + 4 + length > stream.length) throw new Error('a record runs past the end of the workbook');
    yield { type, data: stream.subarray(at + 4, at + 4 + length) };
    at += 4 + length;
  }
}

/** Characters of a BIFF8 string: one byte each (the low byte of UTF-16) or two. */
const chars = (data: Buffer, at: number, count: number, wide: boolean) => (wide ? data.toString('utf16le', at, at + 2 * count) : data.toString('latin1', at, at + count));

/** A string of a cell record (LABEL, RSTRING, STRING): 16-bit count, flags, characters. */
function cellString(data: Buffer, at: number): string {
  const count = data.readUInt16LE(at);
  return chars(data, at + 3, count, (data[at + 2]! & 1) === 1);
}

/**
 * The shared strings: the SST record and its CONTINUE records. A string's characters may go on in
 * the next record, which then starts with a flags byte of its own (one byte or two per character
 * from there on); anything else simply carries on.
 */
function readSharedStrings(parts: Buffer[]): string[] {
  let part = 0;
  let at = 0;
  const nextPart = () => {
    if (++part >= parts.length) throw new Error('the shared strings end early');
    at = 0;
  };
  const need = (n: number) => {
    while (at + n > parts[part]!.length) {
      if (at < parts[part]!.length) throw new Error('a shared string field is split across records');
      nextPart();
    }
  };
  const u8 = () => (need(1), parts[part]![at++]!);
  const u16 = () => (need(2), (at += 2), parts[part]!.readUInt16LE(at - 2));
  const u32 = () => (need(4), (at += 4), parts[part]!.readUInt32LE(at - 4));
  const skip = (n: number) => {
    for (let left = n; left > 0; ) {
      if (at >= parts[part]!.length) nextPart();
      const step = Math.min(left, parts[part]!.length - at);
      at += step;
      left -= step;
    }
  };

  const unique = (need(8), parts[part]!.readUInt32LE(at + 4));
  at += 8;
  const strings: string[] = [];
  for (let i = 0; i < unique; i++) {
    const count = u16();
    const flags = u8();
    let wide = (flags & 1) === 1;
    const runs = flags & 8 ? u16() : 0;
    const ext = flags & 4 ? u32() : 0;
    let text = '';
    for (let left = count; left > 0; ) {
      if (at >= parts[part]!.length) {
        nextPart();
        wide = (u8() & 1) === 1;
      }
      const take = Math.min(left, Math.floor((parts[part]!.length - at) / (wide ? 2 : 1)));
      if (take === 0) throw new Error('a shared string is cut mid-character');
      text += chars(parts[part]!, at, take, wide);
      at += take * (wide ? 2 : 1);
      left -= take;
    }
    skip(4 * runs + ext);
    strings.push(text);
  }
  return strings;
}

/** Room to rebuild an RK's double: one for the reader, not one per cell. */
const rkDouble = Buffer.alloc(8);

/** An RK number: a 30-bit integer or the top of a double, maybe hundredths. */
function rkValue(rk: number): number {
  let value: number;
  if (rk & 2) value = rk >> 2;
  else {
    rkDouble.writeInt32LE(rk & ~3, 4);
    value = rkDouble.readDoubleLE(0);
  }
  return rk & 1 ? value / 100 : value;
}

/** The rows of the workbook's first worksheet, numbered as Excel numbers them, cells by column (sparse). */
export function readXlsRows(file: Buffer): SheetRow[] {
  const cfb = openCompoundFile(file);
  const stream = cfb.read('Workbook');
  if (!stream) {
    if (cfb.has('EncryptedPackage')) throw new Error('it is protected by a password: save it without one');
    if (cfb.has('Book')) throw new Error('it was saved by Excel 5 or older: save it as .xlsx or as Excel 97-2003');
    throw new Error('it holds no workbook');
  }
  const globals = records(stream, 0);
  const bof = globals.next().value;
  if (!bof || bof.type !== BOF || bof.data.length < 4 || bof.data.readUInt16LE(0) !== 0x0600) {
    throw new Error('it is not in the Excel 97-2003 format (BIFF8)');
  }
  let sheetAt: number | undefined;
  let strings: string[] = [];
  let sst: Buffer[] | undefined;
  for (const rec of globals) {
    if (rec.type === EOF) break;
    // The shared strings go on in the CONTINUE records right after them.
    if (sst && rec.type === CONTINUE) {
      sst.push(rec.data);
      continue;
    }
    if (sst) strings = readSharedStrings(sst);
    sst = undefined;
    if (rec.type === FILEPASS) throw new Error('it is protected by a password: save it without one');
    // The first worksheet (type 0; charts, macro sheets and the like are skipped).
    if (rec.type === BOUNDSHEET && sheetAt === undefined && rec.data[5] === 0) sheetAt = rec.data.readUInt32LE(0);
    if (rec.type === SST) sst = [rec.data];
  }
  if (sst) strings = readSharedStrings(sst);
  if (sheetAt === undefined) throw new Error('it has no worksheet');

  const rows = new Map<number, unknown[]>();
  const put = (row: number, col: number, value: unknown) => {
    let cells = rows.get(row);
    if (!cells) rows.set(row, (cells = []));
    cells[col] = value;
  };
  let formulaAt: [number, number] | undefined;
  const sheet = records(stream, sheetAt);
  if (sheet.next().value?.type !== BOF) throw new Error('its worksheet does not start where the workbook says');
  for (const { type, data } of sheet) {
    if (type === EOF) break;
    // A formula's text result: its own record, with no row or column of its own.
    if (type === STRING) {
      if (formulaAt && data.length >= 3) put(formulaAt[0], formulaAt[1], cellString(data, 0));
      formulaAt = undefined;
      continue;
    }
    if (data.length < 8) continue;
    const row = data.readUInt16LE(0);
    const col = data.readUInt16LE(2);
    switch (type) {
      case LABELSST:
        put(row, col, strings[data.readUInt32LE(6)] ?? '');
        break;
      case LABEL:
      case RSTRING:
        put(row, col, cellString(data, 6));
        break;
      case NUMBER:
        put(row, col, data.readDoubleLE(6));
        break;
      case RK:
        put(row, col, rkValue(data.readInt32LE(6)));
        break;
      case MULRK:
        for (let at = 4, c = col; at + 6 <= data.length - 2; at += 6, c++) put(row, c, rkValue(data.readInt32LE(at + 2)));
        break;
      case BOOLERR:
        put(row, col, data[7] === 1 ? '' : data[6] ? 'TRUE' : 'FALSE');
        break;
      case FORMULA:
        // Its last computed value: a number, or a marker whose string comes in the next STRING record.
        if (data.length < 14) break;
        if (data.readUInt16LE(12) !== 0xffff) put(row, col, data.readDoubleLE(6));
        else if (data[6] === 0) formulaAt = [row, col];
        else put(row, col, data[6] === 1 ? (data[8] ? 'TRUE' : 'FALSE') : '');
        break;
    }
  }
  return [...rows].sort((a, b) => a[0] - b[0]).map(([row, cells]) => ({ row: row + 1, cells }));
}
