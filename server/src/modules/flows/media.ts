// Files the flow editor uploads for img, audio, video and content nodes (spec/03 §5, §7): multipart
// `medias` (one or more; `file` is read too), plus `body` and `fromMe`, which are accepted and not
// needed. Kept under DATA_DIR/media/<companyId>/flows/ like other attachments; a node's `url` holds
// the stored name, which the runtime resolves in the company's folder when the flow sends it.
// Checked before anything is kept: type by extension and declared MIME type, size per kind (image
// 2 MB png/jpg/jpeg, audio 5 MB ogg/mp3 — opus too in content —, video 20 MB mp4), no executables.
import path from 'node:path';
import { AppError } from '@zapdesk/sync';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { storeAttachment } from '../media/attachments.ts';
import { removeMediaFile } from '../media/storage.ts';
import { assertImageIfNamedOne, assertNotDangerous, type UploadedFile } from '../media/uploads.ts';

export const FLOW_MEDIA_FOLDER = 'flows';
const MB = 1024 * 1024;

type Kind = 'image' | 'audio' | 'video';
const RULES: Record<Kind, { ext: string[]; mime: string[]; maxBytes: number; tooBig: string }> = {
  image: { ext: ['png', 'jpg', 'jpeg'], mime: ['image/png', 'image/jpeg', 'image/jpg'], maxBytes: 2 * MB, tooBig: 'Arquivo é muito grande! 2MB máximo' },
  audio: { ext: ['ogg', 'mp3'], mime: ['audio/ogg', 'audio/mpeg', 'audio/mp3', 'audio/opus'], maxBytes: 5 * MB, tooBig: 'Arquivo é muito grande! 5MB máximo' },
  video: { ext: ['mp4'], mime: ['video/mp4'], maxBytes: 20 * MB, tooBig: 'Arquivo é muito grande! 20MB máximo' },
};

/** What each route takes: img and audio one kind, content any of the three (with opus audio). */
export const FLOW_UPLOAD_ROUTES = {
  img: { kinds: ['image'], many: false },
  audio: { kinds: ['audio'], many: false },
  video: { kinds: ['video'], many: false },
  content: { kinds: ['image', 'audio', 'video'], many: true },
} as const satisfies Record<string, { kinds: readonly Kind[]; many: boolean }>;
export type FlowUploadRoute = keyof typeof FLOW_UPLOAD_ROUTES;

/** The whole request: at most a 20 MB video and room for a few more files. */
export const flowUploadLimit = bodyLimit({
  maxSize: 60 * MB,
  onError: () => {
    throw new AppError('ERR_PAYLOAD_TOO_LARGE', 'At most 60 MB of files per request.');
  },
});

const issue = (status: 'ERR_VALIDATION' | 'ERR_UNSUPPORTED_MEDIA_TYPE' | 'ERR_PAYLOAD_TOO_LARGE', path: string, message: string) =>
  new AppError(status, `${path}: ${message}`, { issues: [{ path, message }] });

function kindOf(route: FlowUploadRoute, file: File, at: string): Kind {
  const ext = path.extname(file.name).slice(1).toLowerCase();
  const mime = file.type.split(';')[0]!.trim().toLowerCase();
  const allowed = FLOW_UPLOAD_ROUTES[route].kinds as readonly Kind[];
  const kind = allowed.find((k) => RULES[k].ext.includes(ext) || (route === 'content' && k === 'audio' && ext === 'opus'));
  const names = allowed.flatMap((k) => RULES[k].ext).join(', ');
  if (!kind) throw issue('ERR_UNSUPPORTED_MEDIA_TYPE', at, `Only ${names} files are accepted here.`);
  const generic = mime === '' || mime === 'application/octet-stream';
  if (!generic && !RULES[kind].mime.includes(mime)) throw issue('ERR_UNSUPPORTED_MEDIA_TYPE', at, `${mime} is not an accepted ${kind} type.`);
  if (file.size > RULES[kind].maxBytes) throw issue('ERR_PAYLOAD_TOO_LARGE', at, RULES[kind].tooBig);
  return kind;
}

/** Reads and checks the files of a flow upload; nothing is kept yet. */
export async function readFlowUploads(c: Context, route: FlowUploadRoute): Promise<UploadedFile[]> {
  if (!/^multipart\/form-data/i.test(c.req.header('content-type') ?? '')) {
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Send the files as multipart/form-data in the field "medias".');
  }
  let form: Record<string, string | File | (string | File)[]>;
  try {
    form = await c.req.parseBody({ all: true });
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw issue('ERR_VALIDATION', 'medias', 'The multipart body could not be read');
  }
  const files: File[] = [];
  for (const [key, value] of Object.entries(form)) {
    if (!/^(medias?|file)(\[\])?$/.test(key)) continue;
    for (const v of Array.isArray(value) ? value : [value]) if (typeof v !== 'string') files.push(v);
  }
  if (files.length === 0 || files.some((f) => f.size === 0)) throw issue('ERR_VALIDATION', 'medias', 'Required');
  if (!FLOW_UPLOAD_ROUTES[route].many && files.length > 1) throw issue('ERR_VALIDATION', 'medias', 'One file per request');
  if (files.length > 20) throw issue('ERR_VALIDATION', 'medias', 'At most 20 files per request');
  const out: UploadedFile[] = [];
  for (const [i, f] of files.entries()) {
    kindOf(route, f, files.length > 1 ? `medias.${i}` : 'medias');
    const file = { name: path.basename(f.name.replace(/\\/g, '/')) || 'file', bytes: Buffer.from(await f.arrayBuffer()) };
    assertNotDangerous(file);
    assertImageIfNamedOne(file);
    out.push(file);
  }
  return out;
}

/** Stores checked files in the company's flow folder (no row names them: a failure removes what it kept); answers their stored names. */
export async function storeFlowUploads(mediaDir: string, companyId: number, files: UploadedFile[]): Promise<string[]> {
  const kept: string[] = [];
  try {
    for (const file of files) kept.push(await storeAttachment(mediaDir, companyId, FLOW_MEDIA_FOLDER, file));
  } catch (err) {
    await Promise.all(kept.map((rel) => removeMediaFile(mediaDir, rel)));
    throw err;
  }
  return kept.map((rel) => path.posix.basename(rel));
}

/** The media path of a node's `url` when it names a stored flow file (no scheme, no folders); else undefined. */
export function flowMediaPath(companyId: number, url: string): string | undefined {
  const name = url.trim();
  if (!name || /^[a-z][a-z0-9+.-]*:/i.test(name) || name.includes('/') || name.includes('\\') || name.startsWith('.')) return undefined;
  return `${companyId}/${FLOW_MEDIA_FOLDER}/${name}`;
}
