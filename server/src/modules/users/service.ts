// The business rules of users (spec/01 §6-7, spec/03 Users). Writes take the route's or the push's
// transaction (`tx`, db/write.ts) and the Actor; they never open one, and what the clients must
// hear (pokes, ended sessions) is registered on `tx.effects`, so it happens only after the commit.
import { AppError, can, isCompanyAdmin, type Language, type PermissionKey, type User, type UserCreateInput, type UserUpdateInput } from '@zapdesk/sync';
import { change, emit } from '../../events/emit.ts';
import type { Selectable, Updateable } from 'kysely';
import { resolveCompanyId } from '../../auth/company-scope.ts';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Users } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import { bumpVersion } from '../../sync/version.ts';
import type { Tx } from '../../db/write.ts';
import { findUser, findUserQueues } from './dto.ts';
import {
  countCompanyUsers,
  deleteUserRow,
  findForeignQueueIds,
  findUserRow,
  insertUser,
  isCompanyConnection,
  lockCompanyPlan,
  replaceUserQueues,
  revokeUserSessions,
  updateUserRow,
} from './queries.ts';

/**
 * The one unique index a user write can hit is the platform-wide email. The error ends the write
 * (on PostgreSQL the transaction is aborted anyway), so nothing is queried after it.
 */
export function rethrowEmailInUse(err: unknown): never {
  if (isUniqueViolation(err)) throw new AppError('ERR_EMAIL_IN_USE');
  throw err;
}

function invalid(path: string, message: string): AppError {
  return new AppError('ERR_VALIDATION', `${path}: ${message}`, { issues: [{ path, message }] });
}

/** Queues and the default connection must be the company's own: never link another tenant's row. */
async function assertOwnLinks(db: Database, companyId: number, links: { queueIds?: number[]; whatsappId?: number | null }) {
  if (links.queueIds) {
    const foreign = await findForeignQueueIds(db, companyId, links.queueIds);
    if (foreign.length > 0) throw invalid('queueIds', `No queue ${foreign.join(', ')} in this company`);
  }
  if (links.whatsappId != null && !(await isCompanyConnection(db, companyId, links.whatsappId))) {
    throw invalid('whatsappId', `No connection ${links.whatsappId} in this company`);
  }
}

export async function getUser(db: Database, actor: Actor, companyId: number, userId: number): Promise<User> {
  const self = companyId === actor.companyId && userId === actor.userId;
  if (!self && !isCompanyAdmin(actor)) throw new AppError('ERR_NO_PERMISSION');
  const user = await findUser(db, companyId, userId, actor.userId);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  return user;
}

/** `passwordHash` is computed before the write: hashing is slow and must not hold the transaction. */
export async function createUser(tx: Tx, actor: Actor, input: UserCreateInput, passwordHash: string): Promise<User> {
  const { db } = tx;
  const companyId = await resolveCompanyId(db, actor, input.companyId);
  const company = await lockCompanyPlan(db, tx.dialect, companyId);
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
  // A company without a plan has no limit to enforce; the count runs under the company lock.
  if (company.userLimit !== null && (await countCompanyUsers(db, companyId)) >= company.userLimit) {
    throw new AppError('ERR_USER_LIMIT_REACHED');
  }
  await assertOwnLinks(db, companyId, { queueIds: input.queueIds, whatsappId: input.whatsappId });
  const userId = await insertUser(db, companyId, {
    name: input.name,
    email: input.email,
    passwordHash,
    profile: input.profile,
    whatsappId: input.whatsappId,
    allTicket: input.allTicket,
    showNoQueue: input.showNoQueue ? 1 : 0,
    language: input.language ?? null,
  }).catch(rethrowEmailInUse);
  await replaceUserQueues(db, companyId, userId, input.queueIds);
  tx.effects.poke(companyId);
  await emit(tx, change(companyId, 'user', 'create', userId));
  return (await findUser(db, companyId, userId, actor.userId))!;
}

function sameIds(a: number[], b: number[]): boolean {
  const set = new Set(a);
  return a.length === b.length && b.every((id) => set.has(id));
}

/**
 * Which permission each requested change needs when the actor is not an admin. A field sent with
 * its current value is no change: the user modal always sends the whole form.
 */
async function findForbiddenChange(db: Database, actor: Actor, row: Selectable<Users>, input: UserUpdateInput) {
  const changes: [boolean, PermissionKey][] = [
    [input.profile !== undefined && input.profile !== row.profile, 'user-modal:editProfile'],
    [input.allTicket !== undefined && input.allTicket !== row.allTicket, 'user-modal:editProfile'],
    [input.showNoQueue !== undefined && (input.showNoQueue ? 1 : 0) !== row.showNoQueue, 'user-modal:editProfile'],
    [input.whatsappId !== undefined && input.whatsappId !== row.whatsappId, 'user-modal:editQueues'],
  ];
  if (input.queueIds !== undefined) {
    const current = (await findUserQueues(db, row.companyId, [row.id])).get(row.id) ?? [];
    changes.push([!sameIds(input.queueIds, current.map((q) => q.id)), 'user-modal:editQueues']);
  }
  return changes.find(([changed, key]) => changed && !can(actor, key));
}

/**
 * A company keeps at least one admin: demoting or deleting `userId`, an admin, needs another. Checked
 * inside the write; on PostgreSQL the company row is locked first, so two admins demoting each
 * other at once are serialised and the second sees the first's change (SQLite has one writer).
 */
async function assertAnotherAdmin(tx: Tx, companyId: number, userId: number): Promise<void> {
  if (tx.dialect === 'postgres') await tx.db.selectFrom('companies').select('companies.id').where('companies.id', '=', companyId).forUpdate().execute();
  const other = await tenant(tx.db, companyId)
    .selectFrom('users')
    .select('users.id')
    .where('users.profile', '=', 'admin')
    .where('users.id', '!=', userId)
    .limit(1)
    .executeTakeFirst();
  if (!other) throw new AppError('ERR_LAST_ADMIN');
}

export async function updateUser(
  tx: Tx,
  actor: Actor,
  companyId: number,
  userId: number,
  input: UserUpdateInput,
  passwordHash?: string,
): Promise<User> {
  const { db } = tx;
  const self = companyId === actor.companyId && userId === actor.userId;
  if (!self && !isCompanyAdmin(actor)) throw new AppError('ERR_NO_PERMISSION');
  const row = await findUserRow(db, companyId, userId);
  if (!row) throw new AppError('ERR_NO_USER_FOUND');
  // The platform super-admin's account is theirs alone, even inside their own company.
  if (row.super === 1 && !actor.super) throw new AppError('ERR_NO_PERMISSION');
  if (await findForbiddenChange(db, actor, row, input)) throw new AppError('ERR_NO_PERMISSION');
  await assertOwnLinks(db, companyId, { queueIds: input.queueIds, whatsappId: input.whatsappId });
  if (row.profile === 'admin' && input.profile !== undefined && input.profile !== 'admin') await assertAnotherAdmin(tx, companyId, userId);

  const values: Updateable<Users> = {};
  if (input.name !== undefined) values.name = input.name;
  if (input.email !== undefined) values.email = input.email;
  if (passwordHash !== undefined) values.passwordHash = passwordHash;
  if (input.profile !== undefined) values.profile = input.profile;
  if (input.whatsappId !== undefined) values.whatsappId = input.whatsappId;
  if (input.allTicket !== undefined) values.allTicket = input.allTicket;
  if (input.showNoQueue !== undefined) values.showNoQueue = input.showNoQueue ? 1 : 0;
  if (input.language !== undefined) values.language = input.language;
  await updateUserRow(db, companyId, userId, values).catch(rethrowEmailInUse);
  if (input.queueIds !== undefined) await replaceUserQueues(db, companyId, userId, input.queueIds);
  // A new password ends the account's other sessions; the one making the request stays signed in.
  // Their devices hear it only once the new password is committed.
  if (passwordHash !== undefined) {
    const revoked = await revokeUserSessions(db, companyId, userId, 'password-changed', actor.sessionId);
    if (revoked.length) tx.effects.afterCommit(({ realtime }) => realtime.sessionRevoked(revoked, 'password-changed'));
  }
  tx.effects.poke(companyId);
  await emit(tx, change(companyId, 'user', 'update', userId));
  return (await findUser(db, companyId, userId, actor.userId))!;
}

/**
 * Who may not be deleted: oneself, an unknown user, a super-admin (but by one), the last admin. The
 * route checks it in a write of its own before the delete's slices, so a refused delete changes
 * nothing; the delete checks again in its own write.
 */
export async function assertDeletable(tx: Tx, actor: Actor, companyId: number, userId: number): Promise<void> {
  if (companyId === actor.companyId && userId === actor.userId) throw new AppError('ERR_CANNOT_DELETE_SELF');
  const row = await findUserRow(tx.db, companyId, userId);
  if (!row) throw new AppError('ERR_NO_USER_FOUND');
  if (row.super === 1 && !actor.super) throw new AppError('ERR_NO_PERMISSION');
  if (row.profile === 'admin') await assertAnotherAdmin(tx, companyId, userId);
}

/** What names a user and grows with their years of work: let go of them a slice at a time. */
const USER_REFERENCES = [
  ['tickets', 'userId'],
  ['ticketNotes', 'userId'],
  ['schedules', 'userId'],
  ['chatMessages', 'senderId'],
] as const;

/**
 * One slice of a user's delete, run before its write (the route repeats it in writes of their own:
 * db/slices.ts): up to `limit` of the tickets assigned to them, then of their ticket notes,
 * schedules and internal chat messages, let go of them (versions bumped, as the delete's
 * `detachUser` does), so an attendant's years of work are not one long hold of SQLite's writer;
 * answers how many. (Measured in one write: 20,000 chat messages and 10,000 notes, with 100,000
 * trackings and 50,000 ratings that the foreign keys still let go of in the delete's write, 0.28 s.)
 */
export async function releaseUserSlice(tx: Tx, companyId: number, userId: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  let left = limit;
  for (const [table, column] of USER_REFERENCES) {
    if (left === 0) break;
    // The ids first (db/slices.ts says why); Kysely cannot type a column of a table chosen at run
    // time, hence the casts.
    const idColumn = `${table}.id` as 'tickets.id';
    const ids = (await t.selectFrom(table).select(idColumn).where(`${table}.${column}` as 'tickets.userId', '=', userId).limit(left).execute()).map((r) => r.id);
    if (ids.length === 0) continue;
    await t.updateTable(table).set({ [column]: null, ...bumpVersion() }).where(idColumn, 'in', ids).execute();
    tx.effects.poke(companyId);
    left -= ids.length;
  }
  return limit - left;
}

export async function deleteUser(tx: Tx, actor: Actor, companyId: number, userId: number): Promise<void> {
  await assertDeletable(tx, actor, companyId, userId);
  // Its sessions go with the row; its open devices are told once the delete is committed.
  const ended = await revokeUserSessions(tx.db, companyId, userId, 'user-deleted');
  await deleteUserRow(tx.db, companyId, userId);
  if (ended.length) tx.effects.afterCommit(({ realtime }) => realtime.sessionRevoked(ended, 'user-deleted'));
  tx.effects.poke(companyId);
  await emit(tx, change(companyId, 'user', 'delete', userId));
}

/** The actor's own language. Only their own row shows it (dto.ts), so only they are poked. */
export async function setLanguage(tx: Tx, actor: Actor, language: Language): Promise<User> {
  await updateUserRow(tx.db, actor.companyId, actor.userId, { language });
  const user = await findUser(tx.db, actor.companyId, actor.userId, actor.userId);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  tx.effects.poke(actor.companyId, [actor.userId]);
  await emit(tx, change(actor.companyId, 'user', 'update', actor.userId));
  return user;
}
