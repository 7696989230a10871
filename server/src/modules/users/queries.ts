// Data functions of users: the database handle (often a transaction) first, the company second.
// Every query of a tenant table goes through tenant(), so none can reach another company's rows.
import { PAGE_SIZE, type User, type UsersPage } from '@zapdesk/sync';
import { sql, type Insertable, type Updateable } from 'kysely';
import { nowIso, type Database, type Dialect } from '../../db/database.ts';
import { likeFolded } from '../../db/like.ts';
import type { Users } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import { bumpVersion } from '../../sync/version.ts';
import { findUserQueues, toUserDto } from './dto.ts';

/** GET /users/list: the short form of a user, for pickers such as the transfer dialog. */
export type UserRef = Pick<User, 'id' | 'name' | 'email' | 'profile' | 'queues'>;

/** One page of a company's users, searched over name and email (case and accents ignored on both dialects), as `viewerId` reads them. */
export async function findUsersPage(db: Database, companyId: number, search: string, pageNumber: number, viewerId: number): Promise<UsersPage> {
  let query = tenant(db, companyId).selectFrom('users');
  if (search) {
    query = query.where((eb) => eb.or([likeFolded(eb.ref('users.name'), search), likeFolded(eb.ref('users.email'), search)]));
  }
  const { count } = await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const rows = await query
    .selectAll('users')
    .orderBy('users.name')
    .orderBy('users.id')
    .limit(PAGE_SIZE)
    .offset((pageNumber - 1) * PAGE_SIZE)
    .execute();
  const queues = await findUserQueues(db, companyId, rows.map((r) => r.id));
  const users = rows.map((r) => toUserDto(r, queues.get(r.id) ?? [], viewerId));
  const total = Number(count);
  return { users, count: total, hasMore: total > (pageNumber - 1) * PAGE_SIZE + users.length };
}

/** Every user of a company in its short form, for pickers such as the transfer dialog. */
export async function findCompanyUserRefs(db: Database, companyId: number): Promise<UserRef[]> {
  const rows = await tenant(db, companyId)
    .selectFrom('users')
    .select(['users.id', 'users.name', 'users.email', 'users.profile'])
    .orderBy('users.name')
    .orderBy('users.id')
    .execute();
  const queues = await findUserQueues(db, companyId, rows.map((r) => r.id));
  return rows.map((r) => ({ ...r, queues: queues.get(r.id) ?? [] }));
}

export async function findUserRow(db: Database, companyId: number, userId: number) {
  return tenant(db, companyId).selectFrom('users').selectAll('users').where('users.id', '=', userId).executeTakeFirst();
}

export async function countCompanyUsers(db: Database, companyId: number): Promise<number> {
  const row = await tenant(db, companyId)
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * The company with its plan's user limit, row-locked on PostgreSQL so two concurrent creations
 * cannot both pass the limit check (SQLite already runs one writer at a time).
 */
export async function lockCompanyPlan(db: Database, dialect: Dialect, companyId: number) {
  return db
    .selectFrom('companies')
    .leftJoin('plans', 'plans.id', 'companies.planId')
    .select(['companies.id', 'plans.users as userLimit'])
    .where('companies.id', '=', companyId)
    .$if(dialect === 'postgres', (q) => q.forUpdate('companies'))
    .executeTakeFirst();
}

/** Which of the given queue ids are not queues of the company. */
export async function findForeignQueueIds(db: Database, companyId: number, queueIds: number[]): Promise<number[]> {
  if (queueIds.length === 0) return [];
  const own = await tenant(db, companyId).selectFrom('queues').select('queues.id').where('queues.id', 'in', queueIds).execute();
  const ownIds = new Set(own.map((q) => q.id));
  return queueIds.filter((id) => !ownIds.has(id));
}

export async function isCompanyConnection(db: Database, companyId: number, whatsappId: number): Promise<boolean> {
  const row = await tenant(db, companyId).selectFrom('whatsapps').select('whatsapps.id').where('whatsapps.id', '=', whatsappId).executeTakeFirst();
  return row !== undefined;
}

export async function insertUser(db: Database, companyId: number, values: Omit<Insertable<Users>, 'companyId'>): Promise<number> {
  const row = await tenant(db, companyId).insertInto('users', values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Writes the changed columns and bumps the row version, so sync clients see the change. */
export async function updateUserRow(db: Database, companyId: number, userId: number, values: Updateable<Users>) {
  await tenant(db, companyId)
    .updateTable('users')
    .set({ ...values, updatedAt: nowIso(), version: sql`version + 1` })
    .where('users.id', '=', userId)
    .execute();
}

export async function replaceUserQueues(db: Database, companyId: number, userId: number, queueIds: number[]) {
  const t = tenant(db, companyId);
  await t.deleteFrom('userQueues').where('userQueues.userId', '=', userId).execute();
  if (queueIds.length > 0) await t.insertInto('userQueues', queueIds.map((queueId) => ({ userId, queueId }))).execute();
}

/** Revokes the user's live sessions (but one) and answers their ids, for the `auth` event after commit. */
export async function revokeUserSessions(db: Database, companyId: number, userId: number, reason: string, keepSessionId?: string): Promise<string[]> {
  const t = nowIso();
  let query = tenant(db, companyId)
    .updateTable('userSessions')
    .set({ revokedAt: t, revokedReason: reason, updatedAt: t })
    .where('userSessions.userId', '=', userId)
    .where('userSessions.revokedAt', 'is', null);
  if (keepSessionId) query = query.where('userSessions.id', '!=', keepSessionId);
  return (await query.returning('userSessions.id').execute()).map((r) => r.id);
}

export async function deleteUserRow(db: Database, companyId: number, userId: number) {
  const t = tenant(db, companyId);
  // The foreign keys cascade too; deleting the links first keeps it explicit and dialect-proof.
  await t.deleteFrom('userQueues').where('userQueues.userId', '=', userId).execute();
  await detachUser(db, companyId, userId);
  await t.deleteFrom('users').where('users.id', '=', userId).execute();
}

/**
 * The synced rows that name the user (a ticket's attendant, a tag's, note's, schedule's, flow's or
 * flow campaign's author, a chat's owner, a chat message's sender): the foreign key would null them
 * without a version bump, invisible to sync, so they are nulled here first, versions bumped.
 */
async function detachUser(db: Database, companyId: number, userId: number) {
  const t = tenant(db, companyId);
  await t.updateTable('tickets').set({ userId: null, ...bumpVersion() }).where('tickets.userId', '=', userId).execute();
  await t.updateTable('tags').set({ userId: null, ...bumpVersion() }).where('tags.userId', '=', userId).execute();
  await t.updateTable('ticketNotes').set({ userId: null, ...bumpVersion() }).where('ticketNotes.userId', '=', userId).execute();
  await t.updateTable('schedules').set({ userId: null, ...bumpVersion() }).where('schedules.userId', '=', userId).execute();
  await t.updateTable('chats').set({ ownerId: null, ...bumpVersion() }).where('chats.ownerId', '=', userId).execute();
  await t.updateTable('chatMessages').set({ senderId: null, ...bumpVersion() }).where('chatMessages.senderId', '=', userId).execute();
  await t.updateTable('flows').set({ userId: null, ...bumpVersion() }).where('flows.userId', '=', userId).execute();
  await t.updateTable('flowCampaigns').set({ userId: null, ...bumpVersion() }).where('flowCampaigns.userId', '=', userId).execute();
}
