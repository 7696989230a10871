// Uploaded media of quick messages and announcements: read one file from a multipart body, check
// its real type from its first bytes (the declared type and name are the client's word), and keep
// it under config.mediaDir/<companyId>/<folder>/. Nothing here touches the database.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { AppError } from '@zapdesk/sync';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { mimeOfPath, resolveMediaFile } from '../media/storage.ts';

export type UploadedFile = { name: string; bytes: Buffer };

/** A per-route cap on the whole multipart body (the app's global ceiling for multipart is wider). */
export function limitUpload(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes + 64 * 1024, // room for the multipart framing and the other fields
    onError: () => {
      throw new AppError('ERR_PAYLOAD_TOO_LARGE', `The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`);
    },
  });
}

/** The file of field `file` and the text fields of a multipart/form-data body. */
export async function readUpload(c: Context, maxBytes: number): Promise<{ file: UploadedFile; fields: Record<string, string> }> {
  if (!/^multipart\/form-data/i.test(c.req.header('content-type') ?? '')) {
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data in the field "file".');
  }
  let body: Record<string, string | File | (string | File)[]>;
  try {
    body = await c.req.parseBody({ all: true });
  } catch {
    throw new AppError('ERR_VALIDATION', 'file: the multipart body could not be read', { issues: [{ path: 'file', message: 'Malformed multipart body' }] });
  }
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') fields[key] = value;
  const raw = Array.isArray(body.file) ? body.file[0] : body.file;
  if (!(raw instanceof File) || raw.size === 0) {
    throw new AppError('ERR_VALIDATION', 'file: Required', { issues: [{ path: 'file', message: 'Required' }] });
  }
  if (raw.size > maxBytes) throw new AppError('ERR_PAYLOAD_TOO_LARGE', `The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`);
  return { file: { name: displayName(raw.name), bytes: Buffer.from(await raw.arrayBuffer()) }, fields };
}

function wrongType(message: string): AppError {
  return new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', message, { issues: [{ path: 'file', message }] });
}

/** The name as shown to users: no folders, no control characters, at most 200 characters. */
function displayName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const base = path.basename(name.replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (base || 'file').slice(-200);
}

const startsWith = (bytes: Buffer, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/** PNG or JPEG by content, with a matching extension (announcements and schedules: png, jpg, jpeg). */
export function assertImage(file: UploadedFile) {
  const ext = path.extname(file.name).toLowerCase();
  const png = startsWith(file.bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const jpeg = startsWith(file.bytes, [0xff, 0xd8, 0xff]);
  if (!((png && ext === '.png') || (jpeg && (ext === '.jpg' || ext === '.jpeg')))) {
    throw wrongType('Only png, jpg and jpeg images are accepted.');
  }
}

// Files a browser or an operating system would run rather than show: executables, scripts and
// active web content. Everything else (images, audio, video, documents) may be attached.
const DANGEROUS_EXTENSIONS = new Set([
  '.exe', '.dll', '.com', '.scr', '.msi', '.msp', '.bat', '.cmd', '.ps1', '.psm1', '.vbs', '.vbe', '.js', '.mjs', '.cjs', '.jse',
  '.wsf', '.wsh', '.hta', '.cpl', '.jar', '.sh', '.bash', '.zsh', '.csh', '.php', '.phtml', '.pl', '.py', '.rb', '.cgi', '.asp',
  '.aspx', '.jsp', '.html', '.htm', '.xhtml', '.shtml', '.svg', '.svgz', '.xml', '.swf', '.lnk', '.reg', '.inf', '.app', '.dmg',
  '.pkg', '.deb', '.rpm', '.apk', '.elf', '.so', '.dylib',
]);
const EXECUTABLE_MAGIC = [
  [0x4d, 0x5a], // MZ: Windows PE
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xce, 0xfa, 0xed, 0xfe], [0xcf, 0xfa, 0xed, 0xfe], // Mach-O
  [0x23, 0x21], // #! script
];

export function assertNotDangerous(file: UploadedFile) {
  if (DANGEROUS_EXTENSIONS.has(path.extname(file.name).toLowerCase())) throw wrongType('This type of file is not accepted.');
  if (EXECUTABLE_MAGIC.some((m) => startsWith(file.bytes, m))) throw wrongType('Executable files are not accepted.');
  const head = file.bytes.subarray(0, 1024).toString('latin1').trimStart().toLowerCase();
  if (/^<(!doctype html|html|script|svg|\?xml)/.test(head)) throw wrongType('Web pages and scripts are not accepted.');
}

/** Writes the file and returns its path relative to mediaDir (what the row stores). */
export async function storeMedia(mediaDir: string, companyId: number, folder: string, file: UploadedFile): Promise<string> {
  const safe = file.name.replace(/[^\w.-]+/g, '_').slice(-100);
  const relative = path.posix.join(String(companyId), folder, `${Date.now()}-${randomBytes(6).toString('hex')}-${safe}`);
  await mkdir(path.join(mediaDir, String(companyId), folder), { recursive: true });
  await writeFile(path.join(mediaDir, relative), file.bytes, { flag: 'wx' });
  return relative;
}

/** Removes a stored file; a missing file is fine, and a path outside mediaDir is never touched. */
export async function removeMedia(mediaDir: string, relative: string | null | undefined): Promise<void> {
  if (!relative) return;
  const root = path.resolve(mediaDir);
  const full = path.resolve(root, relative);
  if (!full.startsWith(root + path.sep)) return;
  await unlink(full).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/**
 * The stored file as a response. Images, audio and video show inline; anything else downloads,
 * so a document can never render as a page of our origin.
 */
export async function sendMedia(mediaDir: string, relative: string | null, downloadName: string | null): Promise<Response> {
  const abs = relative ? resolveMediaFile(mediaDir, relative) : undefined;
  const info = abs ? await stat(abs).catch(() => undefined) : undefined;
  if (!abs || !info?.isFile()) throw new AppError('ERR_NOT_FOUND', 'There is no attachment.');
  const type = mimeOfPath(abs);
  const inline = /^(image|audio|video)\//.test(type);
  const name = encodeURIComponent(downloadName ?? path.basename(abs));
  return new Response(Readable.toWeb(createReadStream(abs)) as ReadableStream, {
    headers: {
      'content-type': type,
      'content-length': String(info.size),
      'content-disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${name}`,
      'cache-control': 'private, max-age=3600',
      'x-content-type-options': 'nosniff',
    },
  });
}
