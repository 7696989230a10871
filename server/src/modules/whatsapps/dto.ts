// A connection as the API answers it: booleans as booleans, schedules parsed, its queues attached,
// the token for admins only and the QR only when the caller asks for session details.
import type { ConnectionProvider, ConnectionStatusValue, Schedule, Whatsapp, WhatsappQueueRef } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Whatsapps } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';

export type DtoOptions = { showToken: boolean; withSession: boolean };

export function parseSchedules(raw: string): Schedule[] {
  try {
    const value = JSON.parse(raw) as unknown;
    return Array.isArray(value) ? (value as Schedule[]) : [];
  } catch {
    return [];
  }
}

export function toWhatsappDto(row: Selectable<Whatsapps>, queues: WhatsappQueueRef[], opts: DtoOptions): Whatsapp {
  const dto: Whatsapp = {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    status: row.status as ConnectionStatusValue,
    isDefault: row.isDefault === 1,
    number: row.number,
    provider: row.provider as ConnectionProvider,
    greetingMessage: row.greetingMessage,
    complationMessage: row.complationMessage,
    outOfHoursMessage: row.outOfHoursMessage,
    ratingMessage: row.ratingMessage,
    expiresInactiveMessage: row.expiresInactiveMessage,
    expiresTicket: row.expiresTicket,
    timeUseBotQueues: row.timeUseBotQueues,
    maxUseBotQueues: row.maxUseBotQueues,
    timeToTransfer: row.timeToTransfer,
    transferQueueId: row.transferQueueId,
    promptId: row.promptId,
    integrationId: row.integrationId,
    schedules: parseSchedules(row.schedules),
    queues,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: row.version,
  };
  if (opts.withSession) Object.assign(dto, { qrcode: row.qrcode, retries: row.retries });
  if (opts.showToken) dto.token = row.token;
  return dto;
}

/** The queues of each connection, in queue order. */
export async function findConnectionQueues(db: Database, companyId: number, whatsappIds: number[]): Promise<Map<number, WhatsappQueueRef[]>> {
  const out = new Map<number, WhatsappQueueRef[]>();
  if (whatsappIds.length === 0) return out;
  const rows = await tenant(db, companyId)
    .selectFrom('whatsappQueues')
    .innerJoin('queues', 'queues.id', 'whatsappQueues.queueId')
    .select(['whatsappQueues.whatsappId', 'queues.id', 'queues.name', 'queues.color', 'queues.greetingMessage', 'queues.orderQueue'])
    .where('whatsappQueues.whatsappId', 'in', whatsappIds)
    .orderBy('queues.orderQueue')
    .orderBy('queues.id')
    .execute();
  for (const { whatsappId, ...queue } of rows) out.set(whatsappId, [...(out.get(whatsappId) ?? []), queue]);
  return out;
}

export async function findWhatsappDtos(db: Database, companyId: number, opts: DtoOptions, id?: number): Promise<Whatsapp[]> {
  let query = tenant(db, companyId).selectFrom('whatsapps').selectAll('whatsapps');
  if (id !== undefined) query = query.where('whatsapps.id', '=', id);
  const rows = await query.orderBy('whatsapps.name').orderBy('whatsapps.id').execute();
  const queues = await findConnectionQueues(db, companyId, rows.map((r) => r.id));
  return rows.map((r) => toWhatsappDto(r, queues.get(r.id) ?? [], opts));
}
