// Media files of tickets: checked against the upload rules, stored under
// DATA_DIR/media/<companyId>/tickets/<ticketId>/, and addressed by that relative path, so the path
// alone names the company and the ticket whose access rules guard it.
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { UploadKind } from '@zapdesk/sync';

export { classifyUpload, type UploadCandidate } from '@zapdesk/sync';

export type StoredMedia = {
  /** `<companyId>/tickets/<ticketId>/<file>`; the URL is `/media/` + this. */
  relPath: string;
  /** The message's mediaType (spec/02 §3): documents are `application`. */
  mediaType: 'image' | 'audio' | 'video' | 'application';
  kind: UploadKind;
  mimeType: string;
  fileName: string;
  size: number;
};

const MIME_BY_EXT: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif',
  ogg: 'audio/ogg', opus: 'audio/ogg', mp3: 'audio/mpeg', mpeg: 'audio/mpeg', m4a: 'audio/mp4', aac: 'audio/aac',
  mp4: 'video/mp4', '3gp': 'video/3gpp',
  pdf: 'application/pdf', txt: 'text/plain', csv: 'text/csv', zip: 'application/zip',
};

const extOf = (fileName: string) => path.extname(fileName).slice(1).toLowerCase();

const MEDIA_TYPE_OF: Record<UploadKind, StoredMedia['mediaType']> = { image: 'image', audio: 'audio', video: 'video', document: 'application' };

export function mediaTypeOfKind(kind: UploadKind): StoredMedia['mediaType'] {
  return MEDIA_TYPE_OF[kind];
}

/** Writes a ticket's file. The caller has checked it (uploads) or trusts it (inbound from the network). */
export async function saveTicketMedia(
  mediaDir: string,
  companyId: number,
  ticketId: number,
  file: { data: Buffer; fileName: string; mimeType: string; mediaType: StoredMedia['mediaType']; kind: UploadKind },
): Promise<StoredMedia> {
  const ext = extOf(file.fileName) || extFromMime(file.mimeType);
  const name = `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}${ext ? `.${ext}` : ''}`;
  const relPath = `${companyId}/tickets/${ticketId}/${name}`;
  const abs = path.join(mediaDir, relPath);
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(abs, file.data);
  return { relPath, mediaType: file.mediaType, kind: file.kind, mimeType: file.mimeType, fileName: file.fileName, size: file.data.length };
}

function extFromMime(mime: string): string {
  const m = mime.split(';')[0]!.trim().toLowerCase();
  return Object.entries(MIME_BY_EXT).find(([, v]) => v === m)?.[0] ?? '';
}

export function mimeOfPath(relPath: string): string {
  return MIME_BY_EXT[extOf(relPath)] ?? 'application/octet-stream';
}

/** The absolute file of a relative media path, or undefined when the path tries to leave the folder. */
export function resolveMediaFile(mediaDir: string, relPath: string): string | undefined {
  const root = path.resolve(mediaDir);
  const abs = path.resolve(root, relPath);
  return abs.startsWith(root + path.sep) ? abs : undefined;
}

export const mediaUrlOf = (relPath: string | null) => (relPath ? `/media/${relPath}` : null);

export async function removeTicketMedia(mediaDir: string, companyId: number, ticketId: number): Promise<void> {
  await rm(path.join(mediaDir, String(companyId), 'tickets', String(ticketId)), { recursive: true, force: true });
}

export async function removeMediaFile(mediaDir: string, relPath: string): Promise<void> {
  const abs = resolveMediaFile(mediaDir, relPath);
  if (abs) await rm(abs, { force: true });
}
