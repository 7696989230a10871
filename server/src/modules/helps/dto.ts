import type { Help } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Helps } from '../../db/schema.ts';

export function toHelpDto(row: Selectable<Helps>): Help {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    video: row.video,
    link: row.link,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
