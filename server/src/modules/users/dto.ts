// The user as the API shows it (spec/01 §3 "User (shared shape)"): never the password hash.
import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Users } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';

export type QueueRef = { id: number; name: string; color: string };
export type CompanyRef = {
  id: number;
  name: string;
  email: string | null;
  dueDate: string | null;
  trialExpiration: string | null;
  status: boolean;
  planId: number | null;
  settings: { key: string; value: string }[];
};

export type UserDto = {
  id: number;
  name: string;
  email: string;
  profile: string;
  super: boolean;
  companyId: number;
  whatsappId: number | null;
  allTicket: string;
  showNoQueue: boolean;
  language: string | null;
  online: boolean;
  createdAt: string;
  updatedAt: string;
  queues: QueueRef[];
};

export function toUserDto(row: Selectable<Users>, queues: QueueRef[]): UserDto {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    profile: row.profile,
    super: row.super === 1,
    companyId: row.companyId,
    whatsappId: row.whatsappId,
    allTicket: row.allTicket,
    showNoQueue: row.showNoQueue === 1,
    language: row.language,
    online: row.online === 1,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    queues,
  };
}

/** Queues of several users of one company, keyed by user id. */
export async function findUserQueues(db: Database, companyId: number, userIds: number[]): Promise<Map<number, QueueRef[]>> {
  const out = new Map<number, QueueRef[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return out;
  const rows = await tenant(db, companyId)
    .selectFrom('userQueues')
    .innerJoin('queues', 'queues.id', 'userQueues.queueId')
    .select(['userQueues.userId', 'queues.id', 'queues.name', 'queues.color'])
    .where('userQueues.userId', 'in', userIds)
    .orderBy('queues.orderQueue')
    .orderBy('queues.id')
    .execute();
  for (const r of rows) out.get(r.userId)?.push({ id: r.id, name: r.name, color: r.color });
  return out;
}

export async function findCompanyRef(db: Database, companyId: number): Promise<CompanyRef | undefined> {
  const company = await db.selectFrom('companies').selectAll().where('id', '=', companyId).executeTakeFirst();
  if (!company) return undefined;
  const settings = await tenant(db, companyId).selectFrom('settings').select(['key', 'value']).orderBy('key').execute();
  return {
    id: company.id,
    name: company.name,
    email: company.email,
    dueDate: company.dueDate,
    trialExpiration: company.trialExpiration,
    status: company.status === 1,
    planId: company.planId,
    settings,
  };
}

/** One user of one company with queues, or undefined: another company's id finds nothing. */
export async function findUser(db: Database, companyId: number, userId: number): Promise<UserDto | undefined> {
  const row = await tenant(db, companyId).selectFrom('users').selectAll().where('users.id', '=', userId).executeTakeFirst();
  if (!row) return undefined;
  const queues = await findUserQueues(db, companyId, [row.id]);
  return toUserDto(row, queues.get(row.id) ?? []);
}
