// The one row → wire mapper of connections (sync/src/domain/whatsapp.ts `connectionSchema`):
// GET /whatsapp and the sync view (`connection/<id>`, view.ts) both send what this returns, with
// the same two rules: the token only for admins, the QR code and retries only with the session
// details (REST: unless session=0; the view: always).
import { isCompanyAdmin, type Connection, type ConnectionProvider, type ConnectionQueue, type ConnectionStatusValue, type Schedule } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import type { Whatsapps } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';

export type ConnectionDtoOptions = { actor: Actor; withSession: boolean };

/** Who reads a connection's messages-API token: admins (and the super-admin). */
export const mayReadToken = (actor: Actor) => isCompanyAdmin(actor);

export function parseSchedules(raw: string): Schedule[] {
  try {
    const value = JSON.parse(raw) as unknown;
    return Array.isArray(value) ? (value as Schedule[]) : [];
  } catch {
    return [];
  }
}

export function toConnectionDto(row: Selectable<Whatsapps>, queues: ConnectionQueue[], opts: ConnectionDtoOptions): Connection {
  const dto: Connection = {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    status: row.status as ConnectionStatusValue,
    isDefault: row.isDefault === 1,
    deleting: row.deletingSince !== null,
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
    queueIds: queues.map((q) => q.id),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: row.version,
  };
  if (opts.withSession) Object.assign(dto, { qrcode: row.qrcode, retries: row.retries });
  if (mayReadToken(opts.actor)) dto.token = row.token;
  return dto;
}

/** The queues of each connection, in menu order (orderQueue, then id). */
export async function findConnectionQueues(db: Database, companyId: number, whatsappIds: number[]): Promise<Map<number, ConnectionQueue[]>> {
  const out = new Map<number, ConnectionQueue[]>();
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

/** The company's connections (or those of `ids`), by name. */
export async function findConnectionDtos(db: Database, companyId: number, opts: ConnectionDtoOptions, ids?: number[]): Promise<Connection[]> {
  if (ids?.length === 0) return [];
  let query = tenant(db, companyId).selectFrom('whatsapps').selectAll('whatsapps');
  if (ids !== undefined) query = query.where('whatsapps.id', 'in', ids);
  const rows = await query.orderBy('whatsapps.name').orderBy('whatsapps.id').execute();
  const queues = await findConnectionQueues(db, companyId, rows.map((r) => r.id));
  return rows.map((r) => toConnectionDto(r, queues.get(r.id) ?? [], opts));
}
