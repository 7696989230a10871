// The file of a multipart/form-data upload (POST /contacts/import/file), read as the request
// arrives: the part's headers first (so a missing file or an unknown format is refused before any
// row), then its bytes as a stream the import reads while the upload is still coming. Nothing holds
// the whole upload: a csv is imported as it streams, so the server's memory stays flat whatever the
// file's size. (Hono's parseBody and the Fetch API's formData() both buffer the whole body first.)
// Written here rather than taken from busboy: one file field, a few dozen lines, no new dependency.
import { AppError } from '@zapdesk/sync';

export type UploadedFile = { fileName: string; contentType: string; chunks: AsyncGenerator<Buffer> };

/** Headers of a part may not run past this (a body that is not multipart never ends its headers). */
const MAX_HEADER_BYTES = 16 * 1024;

const CRLF2 = Buffer.from('\r\n\r\n');

/**
 * Bytes handed on at a time. A body may arrive as one big chunk (an in-process request, a fast
 * socket), and a parser fed one chunk parses all of it into rows before anyone reads a row.
 */
const SLICE_BYTES = 64 * 1024;

function* slices(bytes: Buffer): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += SLICE_BYTES) yield bytes.subarray(at, at + SLICE_BYTES);
}

export const multipartBoundary = (contentType: string): string | undefined => /^multipart\/form-data\b.*?;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType)?.slice(1).find(Boolean);

export const tooLarge = (maxBytes: number) => new AppError('ERR_PAYLOAD_TOO_LARGE', `A spreadsheet may have at most ${maxBytes / 1024 / 1024} MB.`);

const unreadable = (why: string) => new AppError('ERR_VALIDATION', `The multipart body could not be read (${why}).`);

/** The request body as Buffers, with what has been read but not used kept in `held`. */
class BodyReader {
  held: Buffer = Buffer.alloc(0);
  private done = false;
  private size = 0;
  constructor(
    private readonly chunks: AsyncIterator<Uint8Array>,
    private readonly maxBytes: number,
  ) {}

  /** Reads one more chunk onto `held`; false at the end of the body. */
  async more(): Promise<boolean> {
    if (this.done) return false;
    const next = await this.chunks.next();
    if (next.done) {
      this.done = true;
      return false;
    }
    this.size += next.value.byteLength;
    // Counted as it arrives: a body sent without its length is refused at the limit, not held whole.
    if (this.size > this.maxBytes) throw tooLarge(this.maxBytes);
    const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    this.held = this.held.length ? Buffer.concat([this.held, chunk]) : chunk;
    return true;
  }

  /** Up to `marker` (consumed, not returned); undefined when the body ends first or `limit` bytes pass. */
  async readUntil(marker: Buffer, limit: number): Promise<Buffer | undefined> {
    for (;;) {
      const at = this.held.indexOf(marker);
      if (at !== -1) {
        const head = this.held.subarray(0, at);
        this.held = this.held.subarray(at + marker.length);
        return head;
      }
      if (this.held.length > limit || !(await this.more())) return undefined;
    }
  }

  /** The bytes before `marker`, as they arrive (all but a possible start of the marker are handed on). */
  async *streamUntil(marker: Buffer): AsyncGenerator<Buffer> {
    for (;;) {
      const at = this.held.indexOf(marker);
      if (at !== -1) {
        const out = this.held.subarray(0, at);
        this.held = this.held.subarray(at + marker.length);
        yield* slices(out);
        return;
      }
      const safe = this.held.length - (marker.length - 1);
      if (safe > 0) {
        const out = this.held.subarray(0, safe);
        this.held = this.held.subarray(safe);
        yield* slices(out);
      }
      if (!(await this.more())) throw unreadable('the upload ended inside a part');
    }
  }

  async drain(): Promise<void> {
    this.held = Buffer.alloc(0);
    while (await this.more()) this.held = Buffer.alloc(0);
  }
}

function partHeaders(raw: Buffer) {
  const headers = new Map<string, string>();
  for (const line of raw.toString('utf8').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = headers.get('content-disposition') ?? '';
  const param = (key: string) => new RegExp(`;\\s*${key}="([^"]*)"`, 'i').exec(disposition)?.[1] ?? new RegExp(`;\\s*${key}=([^;\\s]+)`, 'i').exec(disposition)?.[1];
  return { name: param('name'), fileName: param('filename'), contentType: headers.get('content-type') ?? '' };
}

/**
 * Reads `body` up to the start of the file in the field `field`; undefined when the body has no
 * such part. Past `maxBytes` of body, reading throws ERR_PAYLOAD_TOO_LARGE. The returned chunks must be read to their end (or the request abandoned): they are the
 * rest of the request body. Anything after the file part is read and dropped.
 */
export async function openUploadedFile(body: ReadableStream<Uint8Array> | null, boundary: string, field: string, maxBytes: number): Promise<UploadedFile | undefined> {
  if (!body) return undefined;
  const reader = new BodyReader(body[Symbol.asyncIterator](), maxBytes);
  const delimiter = Buffer.from(`--${boundary}`);
  const partEnd = Buffer.from(`\r\n--${boundary}`);
  if ((await reader.readUntil(delimiter, MAX_HEADER_BYTES)) === undefined) throw unreadable('no boundary');
  for (;;) {
    // After a boundary: `--` ends the body, a line break starts a part.
    while (reader.held.length < 2 && (await reader.more()));
    if (reader.held.subarray(0, 2).toString() === '--') {
      await reader.drain();
      return undefined;
    }
    const head = await reader.readUntil(CRLF2, MAX_HEADER_BYTES);
    if (head === undefined) throw unreadable('a part without its headers');
    const part = partHeaders(head);
    if (part.name === field && part.fileName !== undefined) {
      const chunks = (async function* () {
        yield* reader.streamUntil(partEnd);
        await reader.drain();
      })();
      return { fileName: part.fileName, contentType: part.contentType, chunks };
    }
    for await (const skipped of reader.streamUntil(partEnd)) void skipped;
  }
}
