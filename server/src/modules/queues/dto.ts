// The one row → wire mapper of queues (sync/src/domain/queue.ts `queueSchema`): GET /queue and the
// sync view (`queue/<id>`, view.ts) both answer what this returns, field for field.
import type { Queue } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Queues } from '../../db/schema.ts';
import { parseSchedules } from '../whatsapps/dto.ts';

export function toQueueDto(row: Selectable<Queues>): Queue {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    color: row.color,
    greetingMessage: row.greetingMessage,
    complationMessage: row.complationMessage,
    outOfHoursMessage: row.outOfHoursMessage,
    ratingMessage: row.ratingMessage,
    orderQueue: row.orderQueue,
    integrationId: row.integrationId,
    promptId: row.promptId,
    schedules: parseSchedules(row.schedules),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: row.version,
  };
}
