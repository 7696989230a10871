// The multipart body of POST /files/uploadList/{id} (spec/03 §7: fileId, typeArch, files,
// mediaType, name, id): one or more `files`, each with the option `id` it belongs to, in the same
// order. Every file is checked against the upload rules (media/storage.ts: type by extension and
// MIME, 2 MB images, 5 MB audio, 20 MB video, 10 MB documents) and refused when it is an executable
// or active web content, before any is kept. `mediaType` is ours to decide from the checked type;
// `typeArch`, `name` and `fileId` add nothing the path and the option do not already say.
import { AppError, idSchema } from '@zapdesk/sync';
import type { Context } from 'hono';
import { classifyUpload, mediaTypeOfKind } from '../media/storage.ts';
import { assertImageIfNamedOne, assertNotDangerous, isMultipart, type NewUpload } from '../media/uploads.ts';

/** Largest body of one uploadList request: a 20 MB video plus room for a few more files. */
export const MAX_FILE_LIST_UPLOAD_BYTES = 30 * 1024 * 1024;

/** Files in one request. */
const MAX_FILES = 10;

const invalid = (path: string, message: string) => new AppError('ERR_VALIDATION', `${path}: ${message}`, { issues: [{ path, message }] });

export async function readOptionUploads(c: Context): Promise<{ optionId: number; upload: NewUpload }[]> {
  if (!isMultipart(c)) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Send the files as multipart/form-data in the field "files" with the option "id" of each.');
  let form: Record<string, string | File | (string | File)[]>;
  try {
    form = await c.req.parseBody({ all: true });
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw invalid('files', 'the multipart body could not be read');
  }
  const files: File[] = [];
  const ids: string[] = [];
  for (const [key, value] of Object.entries(form)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (/^files?(\[\])?$/.test(key) && v instanceof File) files.push(v);
      else if (/^id(\[\])?$/.test(key) && typeof v === 'string') ids.push(v);
    }
  }
  if (files.length === 0 || files.some((f) => f.size === 0)) throw invalid('files', 'Required');
  if (files.length > MAX_FILES) throw invalid('files', `At most ${MAX_FILES} files per request`);
  if (ids.length !== files.length) throw invalid('id', 'Give the option id of each file, in the same order');
  const optionIds = ids.map((raw, i) => {
    const parsed = idSchema.safeParse(raw);
    if (!parsed.success) throw invalid(files.length > 1 ? `id.${i}` : 'id', 'Invalid option id');
    return parsed.data;
  });
  // All checked before any byte is read into memory or kept.
  const kinds = files.map((f) => classifyUpload({ fileName: f.name, mimeType: f.type, size: f.size }).kind);
  const result: { optionId: number; upload: NewUpload }[] = [];
  for (const [i, file] of files.entries()) {
    const data = Buffer.from(await file.arrayBuffer());
    assertNotDangerous({ name: file.name, bytes: data });
    assertImageIfNamedOne({ name: file.name, bytes: data });
    const kind = kinds[i]!;
    result.push({ optionId: optionIds[i]!, upload: { data, fileName: file.name, mimeType: file.type || 'application/octet-stream', kind, mediaType: mediaTypeOfKind(kind) } });
  }
  return result;
}
