// The business rules of file lists (spec/03 §3, §5, §7). Writes take the route's transaction
// (`Tx`, DESIGN §12) and the Actor and register the company's poke (the list is on paginated REST,
// DESIGN §4: clients showing it refetch). Files follow the write: a stored upload is removed if the
// write rolls back, a replaced or dropped one only after the commit (media/attachments.ts).
import { AppError, type FileListCreateInput, type FileListRecord, type FileListUpdateInput, type FileOptionInput } from '@zapdesk/sync';
import { change, emit } from '../../events/emit.ts';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';
import { removeAttachmentAfterCommit, replaceAttachment } from '../media/attachments.ts';
import type { NewUpload } from '../media/uploads.ts';
import { findFileList, findFileListRow, findOptionsOf } from './queries.ts';
import { detachCampaigns } from '../campaigns/detach.ts';

export const fileListNotFound = () => new AppError('ERR_NOT_FOUND', 'File list not found.');

const invalid = (path: string, message: string) => new AppError('ERR_VALIDATION', `${path}: ${message}`, { issues: [{ path, message }] });

export async function getFileList(db: Database, actor: Actor, fileId: number): Promise<FileListRecord> {
  const list = await findFileList(db, actor.companyId, fileId);
  if (!list) throw fileListNotFound();
  return list;
}

export async function createFileList(tx: Tx, actor: Actor, input: FileListCreateInput): Promise<FileListRecord> {
  const t = tenant(tx.db, actor.companyId);
  const row = await t.insertInto('files', { name: input.name, message: input.message }).returning('id').executeTakeFirstOrThrow();
  if (input.options.length > 0) await t.insertInto('filesOptions', input.options.map((o) => ({ fileId: row.id, name: o.name, path: '' }))).execute();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'file', 'create', row.id));
  return getFileList(tx.db, actor, row.id);
}

/** The given options become the list's: kept (renamed) by id, new without one, the others removed with their files. */
async function replaceOptions(tx: Tx, companyId: number, fileId: number, options: FileOptionInput[]) {
  const t = tenant(tx.db, companyId);
  const current = (await findOptionsOf(tx.db, companyId, [fileId])).get(fileId) ?? [];
  const byId = new Map(current.map((o) => [o.id, o]));
  const kept = new Set<number>();
  for (const [i, o] of options.entries()) {
    if (o.id === undefined) continue;
    if (!byId.has(o.id)) throw invalid(`options.${i}.id`, 'No such option in this list');
    kept.add(o.id);
  }
  for (const o of current) {
    if (kept.has(o.id)) continue;
    await t.deleteFrom('filesOptions').where('filesOptions.id', '=', o.id).execute();
    removeAttachmentAfterCommit(tx, o.path || null);
  }
  for (const o of options) {
    if (o.id === undefined) await t.insertInto('filesOptions', { fileId, name: o.name, path: '' }).execute();
    else if (byId.get(o.id)!.name !== o.name) await t.updateTable('filesOptions').set({ name: o.name, ...bumpVersion() }).where('filesOptions.id', '=', o.id).execute();
  }
}

export async function updateFileList(tx: Tx, actor: Actor, fileId: number, input: FileListUpdateInput): Promise<FileListRecord> {
  if (!(await findFileListRow(tx.db, actor.companyId, fileId))) throw fileListNotFound();
  await tenant(tx.db, actor.companyId)
    .updateTable('files')
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.message !== undefined ? { message: input.message } : {}),
      ...bumpVersion(),
    })
    .where('files.id', '=', fileId)
    .execute();
  if (input.options) await replaceOptions(tx, actor.companyId, fileId, input.options);
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'file', 'update', fileId));
  return getFileList(tx.db, actor, fileId);
}

/** The options go with the list (ON DELETE CASCADE); their files leave the disk after the commit. */
export async function deleteFileList(tx: Tx, actor: Actor, fileId: number): Promise<void> {
  const options = (await findOptionsOf(tx.db, actor.companyId, [fileId])).get(fileId) ?? [];
  // Campaigns that named it lose it, versions bumped (campaigns/detach.ts).
  await detachCampaigns(tx, actor.companyId, 'fileListId', fileId);
  const result = await tenant(tx.db, actor.companyId).deleteFrom('files').where('files.id', '=', fileId).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw fileListNotFound();
  for (const o of options) removeAttachmentAfterCommit(tx, o.path || null);
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'file', 'delete', fileId));
}

/** POST /files/uploadList/{id}: each upload becomes the file of the option named beside it (`id`, in order). */
export async function attachFileOptionUploads(tx: Tx, actor: Actor, fileId: number, uploads: { optionId: number; upload: NewUpload }[]): Promise<FileListRecord> {
  if (!(await findFileListRow(tx.db, actor.companyId, fileId))) throw fileListNotFound();
  const options = (await findOptionsOf(tx.db, actor.companyId, [fileId])).get(fileId) ?? [];
  const byId = new Map(options.map((o) => [o.id, o]));
  for (const [i, { optionId }] of uploads.entries()) {
    if (!byId.has(optionId)) throw invalid(uploads.length > 1 ? `id.${i}` : 'id', 'No such option in this list');
  }
  const t = tenant(tx.db, actor.companyId);
  for (const { optionId, upload } of uploads) {
    const previous = byId.get(optionId)!.path || null;
    await replaceAttachment(tx, { companyId: actor.companyId, folder: `files/${fileId}`, previous }, { name: upload.fileName, bytes: upload.data }, async ({ mediaPath }) => {
      await t
        .updateTable('filesOptions')
        .set({ path: mediaPath ?? '', mediaType: upload.mediaType, ...bumpVersion() })
        .where('filesOptions.id', '=', optionId)
        .execute();
    });
  }
  await t.updateTable('files').set(bumpVersion()).where('files.id', '=', fileId).execute();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'file', 'update', fileId));
  return getFileList(tx.db, actor, fileId);
}
