// The one row → wire mapper of quick messages (sync/src/domain/quick-message.ts
// `quickMessageSchema`): the REST answers and the sync view (`quickMessage/<id>`, view.ts) both
// send what this returns.
import type { QuickMessage } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { QuickMessages } from '../../db/schema.ts';

export function toQuickMessageDto(r: Selectable<QuickMessages>): QuickMessage {
  return {
    id: r.id,
    shortcode: r.shortcode,
    message: r.message,
    mediaPath: r.mediaPath,
    mediaName: r.mediaName,
    geral: r.geral === 1,
    status: r.status === 1,
    isMedia: r.mediaPath !== null,
    userId: r.userId,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
