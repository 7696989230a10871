// The one row → wire mapper of tags (sync/src/domain/tag.ts `tagSchema`): the REST answers
// (GET /tags/{id}, /tags/list, the page rows before their count) and the sync view (`tag/<id>`,
// view.ts) all send what this returns.
import type { Tag } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Tags } from '../../db/schema.ts';

export function toTagDto(row: Selectable<Tags>): Tag {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    kanban: row.kanban === 1 ? 1 : 0,
    userId: row.userId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
