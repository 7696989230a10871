// The one row → wire mapper of file lists (sync/src/domain/file-list.ts `fileListSchema`).
import type { FileListRecord, FileOption } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Files, FilesOptions } from '../../db/schema.ts';

export function toFileOptionDto(row: Selectable<FilesOptions>): FileOption {
  const stored = row.path !== '';
  return {
    id: row.id,
    name: row.name,
    path: stored ? storedFileName(row.path) : '',
    mediaType: stored ? row.mediaType : null,
    url: stored ? `/files/${row.fileId}/options/${row.id}/media` : null,
  };
}

export function toFileListDto(row: Selectable<Files>, options: Selectable<FilesOptions>[]): FileListRecord {
  return {
    id: row.id,
    name: row.name,
    message: row.message,
    options: options.map(toFileOptionDto),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The uploaded file's own name: media/attachments.ts stores it as `<time>-<random>-<name>`. */
export function storedFileName(relPath: string): string {
  const base = relPath.split('/').pop() ?? '';
  return base.replace(/^\d+-[0-9a-f]{12}-/, '');
}
