// Data functions of file lists: the database handle (often a transaction) first, the company
// second; every query goes through the company filter (db/tenant.ts).
import { PAGE_SIZE, type FileListRecord } from '@zapdesk/sync';
import { type Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import { likeFolded } from '../../db/like.ts';
import type { Files, FilesOptions } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import { toFileListDto } from './dto.ts';

/** The campaign dialog's select reads every list at once; more than this is paged. */
export const MAX_UNPAGED_FILE_LISTS = 1_000;

export async function findOptionsOf(db: Database, companyId: number, fileIds: number[]): Promise<Map<number, Selectable<FilesOptions>[]>> {
  const byFile = new Map<number, Selectable<FilesOptions>[]>();
  if (fileIds.length === 0) return byFile;
  const rows = await tenant(db, companyId).selectFrom('filesOptions').selectAll('filesOptions').where('filesOptions.fileId', 'in', fileIds).orderBy('filesOptions.id').execute();
  for (const r of rows) byFile.set(r.fileId, [...(byFile.get(r.fileId) ?? []), r]);
  return byFile;
}

async function withOptions(db: Database, companyId: number, rows: Selectable<Files>[]): Promise<FileListRecord[]> {
  const options = await findOptionsOf(db, companyId, rows.map((r) => r.id));
  return rows.map((r) => toFileListDto(r, options.get(r.id) ?? []));
}

/** A page of lists by name (searched over the name), or every list when `pageNumber` is not given. */
export async function findFileListsPage(db: Database, companyId: number, search: string, pageNumber: number | undefined) {
  let query = tenant(db, companyId).selectFrom('files').selectAll('files');
  if (search) query = query.where((eb) => likeFolded(eb.ref('files.name'), search));
  const size = pageNumber === undefined ? MAX_UNPAGED_FILE_LISTS : PAGE_SIZE;
  const rows = await query
    .orderBy('files.name')
    .orderBy('files.id')
    .limit(size + 1)
    .offset(((pageNumber ?? 1) - 1) * size)
    .execute();
  return { files: await withOptions(db, companyId, rows.slice(0, size)), hasMore: rows.length > size };
}

export async function findFileListRow(db: Database, companyId: number, fileId: number) {
  return tenant(db, companyId).selectFrom('files').selectAll('files').where('files.id', '=', fileId).executeTakeFirst();
}

export async function findFileList(db: Database, companyId: number, fileId: number): Promise<FileListRecord | undefined> {
  const row = await findFileListRow(db, companyId, fileId);
  return row && (await withOptions(db, companyId, [row]))[0];
}

export async function findFileOptionRow(db: Database, companyId: number, fileId: number, optionId: number) {
  return tenant(db, companyId)
    .selectFrom('filesOptions')
    .selectAll('filesOptions')
    .where('filesOptions.fileId', '=', fileId)
    .where('filesOptions.id', '=', optionId)
    .executeTakeFirst();
}
