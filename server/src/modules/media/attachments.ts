// Attachments: the one file a quick message, a schedule or an announcement may carry, kept under
// config.mediaDir/<companyId>/<folder>/ and named in the row by its relative path (`mediaPath`).
// Changing one follows the one write path (DESIGN §12): the new file is written inside the write
// and removed again if the write rolls back; the file it replaces, or a deleted row's, leaves only
// once the write commits. Never a row pointing at nothing, never an orphan file.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { AppError } from '@zapdesk/sync';
import type { Tx } from '../../db/write.ts';
import { mimeOfPath, removeMediaFile, resolveMediaFile } from './storage.ts';
import type { UploadedFile } from './uploads.ts';

/** The row's columns for its attachment: both null when it has none. */
export type Attachment = { mediaPath: string | null; mediaName: string | null };

/** Writes the file and returns its path relative to mediaDir (what the row stores). */
export async function storeAttachment(mediaDir: string, companyId: number, folder: string, file: UploadedFile): Promise<string> {
  const safe = file.name.replace(/[^\w.-]+/g, '_').slice(-100);
  const relative = path.posix.join(String(companyId), folder, `${Date.now()}-${randomBytes(6).toString('hex')}-${safe}`);
  await mkdir(path.join(mediaDir, String(companyId), folder), { recursive: true });
  await writeFile(path.join(mediaDir, relative), file.bytes, { flag: 'wx' });
  return relative;
}

/**
 * Inside a write: makes `file` (or, with null, nothing) the row's attachment. The file is stored
 * first and removed if the write rolls back; `save` writes the row's columns and answers what the
 * caller returns; `previous`, the file it replaces, is removed after the commit.
 */
export async function replaceAttachment<T>(
  tx: Tx,
  target: { companyId: number; folder: string; previous: string | null },
  file: UploadedFile | null,
  save: (attachment: Attachment) => Promise<T>,
): Promise<T> {
  const { mediaDir } = tx.config;
  const mediaPath = file ? await storeAttachment(mediaDir, target.companyId, target.folder, file) : null;
  if (mediaPath) tx.effects.onRollback(() => removeMediaFile(mediaDir, mediaPath));
  const saved = await save({ mediaPath, mediaName: file?.name ?? null });
  removeAttachmentAfterCommit(tx, target.previous);
  return saved;
}

/** A deleted (or replaced) row's file leaves the disk once the write commits; a rollback keeps it. */
export function removeAttachmentAfterCommit(tx: Tx, mediaPath: string | null): void {
  if (!mediaPath) return;
  const { mediaDir } = tx.config;
  tx.effects.afterCommit(() => removeMediaFile(mediaDir, mediaPath));
}

/**
 * The stored file as a response. Images, audio and video show inline; anything else downloads,
 * so a document can never render as a page of our origin.
 */
export async function sendAttachment(mediaDir: string, relative: string | null, downloadName: string | null): Promise<Response> {
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
