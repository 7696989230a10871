// Multipart uploads of message routes (`medias` or `medias[]`, plus text fields): every file is
// checked against the upload rules before any is kept, so a refused request stores nothing.
import { AppError, MAX_MEDIAS_PER_MESSAGE } from '@zapdesk/sync';
import type { Context } from 'hono';
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
  const checked = files.map((f) => ({ file: f, ...classifyUpload({ fileName: f.name, mimeType: f.type, size: f.size }) }));
  const uploads: NewUpload[] = [];
  for (const { file, kind } of checked) {
    uploads.push({ data: Buffer.from(await file.arrayBuffer()), fileName: file.name, mimeType: file.type || 'application/octet-stream', kind, mediaType: mediaTypeOfKind(kind) });
  }
  return { fields, uploads };
}
