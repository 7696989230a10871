// The one user mapper (sync/src/domain/user.ts): rows → the user every transport sends, REST answers,
// the session answers of /auth/* and user/<id> alike; never the password hash. The signed-in user's
// own extras are decided here and nowhere else: `language` on their own row (whoever reads it, on
// either transport), `company` on the session answers.
import { userCompanySchema, type SessionUser, type User, type UserCompany, type UserQueue } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Users } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import { findCompany } from '../companies/service.ts';

type PublicUser = Omit<User, 'language' | 'company'>;

function toPublicUser(row: Selectable<Users>, queues: UserQueue[]): PublicUser {
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
    online: row.online === 1,
    queues,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A user as `viewerId` reads it: their own row carries their language. */
export function toUserDto(row: Selectable<Users>, queues: UserQueue[], viewerId: number): User {
  const user = toPublicUser(row, queues);
  return row.id === viewerId ? { ...user, language: row.language } : user;
}

/** The signed-in user's own row with their company, as login, refresh and /auth/me answer. */
export function toSessionUserDto(row: Selectable<Users>, queues: UserQueue[], company: UserCompany): SessionUser {
  return { ...toPublicUser(row, queues), language: row.language, company };
}

/** Queues of several users of one company, keyed by user id, in queue order. */
export async function findUserQueues(db: Database, companyId: number, userIds: number[]): Promise<Map<number, UserQueue[]>> {
  const out = new Map<number, UserQueue[]>(userIds.map((id) => [id, []]));
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

/** One user of one company with queues, as `viewerId` reads it, or undefined: another company's id finds nothing. */
export async function findUser(db: Database, companyId: number, userId: number, viewerId: number): Promise<User | undefined> {
  const row = await tenant(db, companyId).selectFrom('users').selectAll().where('users.id', '=', userId).executeTakeFirst();
  if (!row) return undefined;
  const queues = await findUserQueues(db, companyId, [row.id]);
  return toUserDto(row, queues.get(row.id) ?? [], viewerId);
}

/** The signed-in user with their company (the company's own answer, cut to what a session carries). */
export async function findSessionUser(db: Database, companyId: number, userId: number): Promise<SessionUser | undefined> {
  const row = await tenant(db, companyId).selectFrom('users').selectAll().where('users.id', '=', userId).executeTakeFirst();
  const company = row && (await findCompany(db, companyId));
  if (!row || !company) return undefined;
  const queues = await findUserQueues(db, companyId, [row.id]);
  // Parsing with the schema keeps only its fields, so the cut follows the schema.
  return toSessionUserDto(row, queues.get(row.id) ?? [], userCompanySchema.parse(company));
}
