// Multipart uploads. Message routes take several files (`medias` or `medias[]`, plus text fields):
// every file is checked against the upload rules before any is kept, so a refused request stores
// nothing; none may be empty, and one named as an image must be one by its first bytes. Attachment
// routes (quick messages, schedules, announcements) take one file in the field `file`, checked by
// its real type from its first bytes (the declared type and name are the client's word);
// attachments.ts keeps it. Nothing here touches the database or the disk.
import path from 'node:path';
import { AppError, MAX_MEDIAS_PER_MESSAGE } from '@zapdesk/sync';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { classifyUpload, mediaTypeOfKind, type StoredMedia } from './storage.ts';

/** A file received in a request, checked, not yet stored. */
export type NewUpload = { data: Buffer; fileName: string; mimeType: string; kind: StoredMedia['kind']; mediaType: StoredMedia['mediaType'] };

/** Largest multipart request on the message routes: a 20 MB video plus room for a few more files. */
export const MAX_MESSAGE_UPLOAD_BYTES = 30 * 1024 * 1024;

/** Per-route cap for multipart message requests (the app-wide JSON limit skips multipart). */
export const messageUploadLimit = bodyLimit({
  maxSize: MAX_MESSAGE_UPLOAD_BYTES,
  onError: () => {
    throw new AppError('ERR_PAYLOAD_TOO_LARGE', `A message may carry at most ${MAX_MESSAGE_UPLOAD_BYTES / 1024 / 1024} MB of files.`);
  },
});

export function isMultipart(c: Context): boolean {
  return /^multipart\/form-data/i.test(c.req.header('content-type') ?? '');
}

export async function readUploads(c: Context): Promise<{ fields: Record<string, string>; uploads: NewUpload[] }> {
  let form: Record<string, string | File | (string | File)[]>;
  try {
    form = await c.req.parseBody({ all: true });
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('ERR_VALIDATION', 'The multipart body could not be read.');
  }
  const fields: Record<string, string> = {};
  const files: File[] = [];
  for (const [key, value] of Object.entries(form)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (typeof v === 'string') fields[key.replace(/\[\]$/, '')] ??= v;
      else if (/^medias?(\[\])?$/.test(key) || key === 'file') files.push(v);
    }
  }
  if (files.length > MAX_MEDIAS_PER_MESSAGE) throw new AppError('ERR_VALIDATION', `At most ${MAX_MEDIAS_PER_MESSAGE} files per message.`);
  // An empty file cannot be sent: WhatsApp takes no media of 0 bytes, and the message would only fail later in the outbox.
  const empty = files.find((f) => f.size === 0);
  if (empty) throw new AppError('ERR_VALIDATION', `medias: ${empty.name || 'a file'} is empty`, { issues: [{ path: 'medias', message: `${empty.name || 'a file'} is empty` }], details: { fileName: empty.name } });
  const checked = files.map((f) => ({ file: f, ...classifyUpload({ fileName: f.name, mimeType: f.type, size: f.size }) }));
  const uploads: NewUpload[] = [];
  for (const { file, kind } of checked) {
    const data = Buffer.from(await file.arrayBuffer());
    assertImageIfNamedOne({ name: file.name, bytes: data });
    uploads.push({ data, fileName: file.name, mimeType: file.type || 'application/octet-stream', kind, mediaType: mediaTypeOfKind(kind) });
  }
  return { fields, uploads };
}

// One file per request: the attachment routes.

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
  if (!isMultipart(c)) {
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

/** A refused file, named in `fileName` beside the message: clients say which of the files it was. */
function wrongType(message: string, fileName: string): AppError {
  return new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', message, { issues: [{ path: 'file', message }], details: { fileName } });
}

/** The name as shown to users: no folders, no control characters, at most 200 characters. */
function displayName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const base = path.basename(name.replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (base || 'file').slice(-200);
}

const startsWith = (bytes: Buffer, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/**
 * PNG or JPEG by content, with a matching extension: announcements and schedules, and every image
 * a message, a campaign or a flow sends (WhatsApp shows what is not one as a broken image).
 */
export function assertImage(file: UploadedFile) {
  const ext = path.extname(file.name).toLowerCase();
  const png = startsWith(file.bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const jpeg = startsWith(file.bytes, [0xff, 0xd8, 0xff]);
  if (!((png && ext === '.png') || (jpeg && (ext === '.jpg' || ext === '.jpeg')))) {
    // Named as one, it is not one (a renamed file, a broken download): say so, naming it.
    throw wrongType(['.png', '.jpg', '.jpeg'].includes(ext) ? `${file.name} is not a ${ext.slice(1)} image.` : 'Only png, jpg and jpeg images are accepted.', file.name);
  }
}

/** A file named as an image (png, jpg, jpeg) must be one by its bytes: it goes out as an image. */
export function assertImageIfNamedOne(file: UploadedFile) {
  if (/\.(png|jpe?g)$/i.test(file.name)) assertImage(file);
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
  if (DANGEROUS_EXTENSIONS.has(path.extname(file.name).toLowerCase())) throw wrongType('This type of file is not accepted.', file.name);
  if (EXECUTABLE_MAGIC.some((m) => startsWith(file.bytes, m))) throw wrongType('Executable files are not accepted.', file.name);
  const head = file.bytes.subarray(0, 1024).toString('latin1').trimStart().toLowerCase();
  if (/^<(!doctype html|html|script|svg|\?xml)/.test(head)) throw wrongType('Web pages and scripts are not accepted.', file.name);
}
