// A quick answer's attachment as a message upload (spec/02 §2.5: choosing a quick answer that has
// one sends it too). The file is already on the server (it was checked when it was attached to the
// quick message), so the chat names the quick message instead of sending the file back: it is read
// here and leaves by the same path as a file the agent attaches (messages/send.ts, the outbox).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError, UPLOAD_RULES, type UploadKind } from '@zapdesk/sync';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import { mediaTypeOfKind, mimeOfPath, resolveMediaFile } from '../media/storage.ts';
import type { NewUpload } from '../media/uploads.ts';
import { getQuickMessageRow } from './service.ts';

/** What WhatsApp shows it as, by the extension; anything else travels as a document. */
function kindOf(fileName: string): UploadKind {
  const ext = path.extname(fileName).slice(1).toLowerCase();
  const kinds = Object.keys(UPLOAD_RULES) as UploadKind[];
  return kinds.find((k) => (UPLOAD_RULES[k].extensions as readonly string[]).includes(ext)) ?? 'document';
}

/**
 * The attachment of a quick message the actor may use (their own or a shared one; 404 otherwise),
 * or undefined when it has none.
 */
export async function readQuickMessageAttachment(db: Database, mediaDir: string, actor: Actor, quickMessageId: number): Promise<NewUpload | undefined> {
  const row = await getQuickMessageRow(db, actor, quickMessageId);
  if (!row.mediaPath) return undefined;
  const file = resolveMediaFile(mediaDir, row.mediaPath);
  const data = file ? await readFile(file).catch(() => undefined) : undefined;
  if (!data) throw new AppError('ERR_NOT_FOUND', `The attachment of the quick message /${row.shortcode} is missing.`);
  const fileName = row.mediaName ?? path.basename(row.mediaPath);
  const kind = kindOf(fileName);
  return { data, fileName, mimeType: mimeOfPath(row.mediaPath), kind, mediaType: mediaTypeOfKind(kind) };
}
