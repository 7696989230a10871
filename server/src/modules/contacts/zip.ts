// The parts of a zip archive (an .xlsx is one) read by random access from a Blob: the central
// directory at the end of the file says where each part is, so parts are read in the order the
// reader needs (shared strings before the sheet), whatever order the writer stored them in.
// A Blob is an upload held by the multipart parser or a file on disk (fs.openAsBlob): nothing is
// copied whole; each part streams through zlib's native inflater.
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

/** Bytes handed on at a time: a parser downstream then holds what one slice yields, not the whole file. */
const SLICE_BYTES = 64 * 1024;

/**
 * The bytes of `blob` from `start` to `end` in slices. A Blob's own stream() gives an upload held
 * in memory as one chunk, and a parser fed one chunk parses all of it before anyone reads a row.
 */
export async function* readBlobSlices(blob: Blob, start = 0, end = blob.size): AsyncGenerator<Buffer> {
  for (let at = start; at < end; at += SLICE_BYTES) yield Buffer.from(await blob.slice(at, Math.min(end, at + SLICE_BYTES)).arrayBuffer());
}

export type ZipEntry = { name: string; method: number; flags: number; compressedSize: number; localHeaderOffset: number };

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_MIN = 22;
const MAX_COMMENT = 0xffff;
const ZIP64_MARK = 0xffffffff;

export class ZipError extends Error {}

async function readBytes(blob: Blob, start: number, end: number): Promise<Buffer> {
  if (start < 0 || end > blob.size || start > end) throw new ZipError('truncated archive');
  return Buffer.from(await blob.slice(start, end).arrayBuffer());
}

/** The entries of the archive's central directory, by name. */
export async function readZipEntries(blob: Blob): Promise<Map<string, ZipEntry>> {
  const tailStart = Math.max(0, blob.size - EOCD_MIN - MAX_COMMENT);
  const tail = await readBytes(blob, tailStart, blob.size);
  let eocd = -1;
  for (let i = tail.length - EOCD_MIN; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('not a zip archive');
  const count = tail.readUInt16LE(eocd + 10);
  const size = tail.readUInt32LE(eocd + 12);
  const offset = tail.readUInt32LE(eocd + 16);
  if (size === ZIP64_MARK || offset === ZIP64_MARK) throw new ZipError('zip64 archives are not supported');
  const directory = await readBytes(blob, offset, offset + size);
  const entries = new Map<string, ZipEntry>();
  let p = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > directory.length || directory.readUInt32LE(p) !== CENTRAL_SIGNATURE) throw new ZipError('damaged central directory');
    const nameLength = directory.readUInt16LE(p + 28);
    const entry: ZipEntry = {
      flags: directory.readUInt16LE(p + 8),
      method: directory.readUInt16LE(p + 10),
      compressedSize: directory.readUInt32LE(p + 20),
      localHeaderOffset: directory.readUInt32LE(p + 42),
      name: directory.toString('utf8', p + 46, p + 46 + nameLength),
    };
    entries.set(entry.name, entry);
    p += 46 + nameLength + directory.readUInt16LE(p + 30) + directory.readUInt16LE(p + 32);
  }
  return entries;
}

/** An entry by name, ignoring case and a leading slash (writers differ on both). */
export function findZipEntry(entries: Map<string, ZipEntry>, name: string): ZipEntry | undefined {
  const wanted = name.replace(/^\//, '');
  const exact = entries.get(wanted);
  if (exact) return exact;
  const lower = wanted.toLowerCase();
  for (const [key, entry] of entries) if (key.toLowerCase() === lower) return entry;
  return undefined;
}

/** The entry's uncompressed bytes as a stream (stored or deflated, the two methods xlsx writers use). */
export async function openZipEntry(blob: Blob, entry: ZipEntry): Promise<Readable> {
  if (entry.flags & 1) throw new ZipError('the file is password-protected');
  if (entry.compressedSize === ZIP64_MARK) throw new ZipError('zip64 archives are not supported');
  const local = await readBytes(blob, entry.localHeaderOffset, entry.localHeaderOffset + 30);
  if (local.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new ZipError(`damaged entry ${entry.name}`);
  // The local header's extra field may differ from the central one's: its own lengths count.
  const start = entry.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  if (start + entry.compressedSize > blob.size) throw new ZipError('truncated archive');
  const raw = Readable.from(readBlobSlices(blob, start, start + entry.compressedSize), { objectMode: false, highWaterMark: SLICE_BYTES });
  if (entry.method === 0) return raw;
  if (entry.method !== 8) throw new ZipError(`unsupported compression method ${entry.method}`);
  const inflate = createInflateRaw({ chunkSize: 64 * 1024 });
  raw.on('error', (err) => inflate.destroy(err));
  return raw.pipe(inflate);
}
