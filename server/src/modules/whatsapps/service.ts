// Connections (spec/03): CRUD with the plan's connection limit and the single-default rule.
// Writes take the route's `Tx` (DESIGN §12) and register their poke on its effects; sessions are
// started by the routes, and a deleted connection's session ends between its writes, never inside one.
import { randomBytes } from 'node:crypto';
import { change, emit } from '../../events/emit.ts';
import { AppError, type Connection, type WhatsappCreateInput, type WhatsappUpdateInput } from '@zapdesk/sync';
import type { Insertable, Updateable } from 'kysely';
import type { Actor } from '../../context.ts';
import { nowIso, type Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Whatsapps } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { recordFailed } from '../../outbound/record.ts';
import { bumpVersion } from '../../sync/version.ts';
import { assertOwnLinks, invalid, lockPlanLimits } from './access.ts';
import { findConnectionDtos } from './dto.ts';
import { detachCampaigns } from '../campaigns/detach.ts';
import { connectionsChanged } from '../../inbound/connection-context.ts';

const newToken = () => randomBytes(24).toString('base64url');

function rethrowTokenInUse(err: unknown): never {
  if (isUniqueViolation(err)) throw invalid('token', 'This token is already used by another connection');
  throw err;
}

export async function getConnection(db: Database, actor: Actor, companyId: number, id: number, withSession = true): Promise<Connection> {
  const [dto] = await findConnectionDtos(db, companyId, { actor, withSession }, [id]);
  if (!dto) throw new AppError('ERR_NO_WAPP_FOUND');
  return dto;
}

export async function listConnections(db: Database, actor: Actor, companyId: number, withSession: boolean): Promise<Connection[]> {
  return findConnectionDtos(db, companyId, { actor, withSession });
}

async function replaceConnectionQueues(db: Database, companyId: number, whatsappId: number, queueIds: number[]) {
  const t = tenant(db, companyId);
  await t.deleteFrom('whatsappQueues').where('whatsappId', '=', whatsappId).execute();
  if (queueIds.length) await t.insertInto('whatsappQueues', queueIds.map((queueId) => ({ whatsappId, queueId }))).execute();
}

/** Makes `id` the only default connection of the company (bumping the versions it changes). */
async function makeSoleDefault(db: Database, companyId: number, id: number) {
  const now = nowIso();
  await tenant(db, companyId)
    .updateTable('whatsapps')
    .set((eb) => ({ isDefault: 0, updatedAt: now, version: eb('version', '+', 1) }))
    .where('isDefault', '=', 1)
    .where('id', '<>', id)
    .execute();
}

function toColumns(input: WhatsappCreateInput | WhatsappUpdateInput): Updateable<Whatsapps> {
  const values: Updateable<Whatsapps> = {};
  const copy = ['name', 'greetingMessage', 'complationMessage', 'outOfHoursMessage', 'ratingMessage', 'expiresInactiveMessage', 'token', 'provider',
    'expiresTicket', 'timeUseBotQueues', 'maxUseBotQueues', 'timeToTransfer', 'transferQueueId', 'promptId', 'integrationId'] as const;
  for (const key of copy) if (input[key] !== undefined) (values as Record<string, unknown>)[key] = input[key];
  if (input.schedules !== undefined) values.schedules = JSON.stringify(input.schedules);
  return values;
}

export async function createConnection(tx: Tx, actor: Actor, companyId: number, input: WhatsappCreateInput): Promise<Connection> {
  const { db } = tx;
  const plan = await lockPlanLimits(tx, companyId);
  const t = tenant(db, companyId);
  const { count } = await t.selectFrom('whatsapps').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  if (plan.connections !== null && Number(count) >= plan.connections) {
    throw new AppError('ERR_NO_PERMISSION', `The plan allows ${plan.connections} connection(s); delete one or upgrade the plan to add another.`, {
      details: { limit: plan.connections },
    });
  }
  await assertOwnLinks(db, companyId, input);
  // The first connection is the default whatever the form says: a company always has one.
  const isDefault = Number(count) === 0 || input.isDefault === true;
  const values = { ...toColumns(input), token: input.token ?? newToken(), status: 'DISCONNECTED', isDefault: isDefault ? 1 : 0 } as Omit<Insertable<Whatsapps>, 'companyId'>;
  const row = await t.insertInto('whatsapps', values).returning('id').executeTakeFirstOrThrow().catch(rethrowTokenInUse);
  if (isDefault) await makeSoleDefault(db, companyId, row.id);
  if (input.queueIds) await replaceConnectionQueues(db, companyId, row.id, input.queueIds);
  tx.effects.poke(companyId);
  await emit(tx, change(companyId, 'whatsapp', 'create', row.id));
  return getConnection(db, actor, companyId, row.id);
}

export async function updateConnection(tx: Tx, actor: Actor, companyId: number, id: number, input: WhatsappUpdateInput): Promise<Connection> {
  connectionsChanged(tx);
  const { db } = tx;
  const t = tenant(db, companyId);
  const row = await t.selectFrom('whatsapps').select(['id', 'isDefault']).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
  // Un-defaulting leaves the company without a default: pick the new default instead.
  if (input.isDefault === false && row.isDefault === 1) throw new AppError('ERR_NO_OTHER_WHATSAPP');
  await assertOwnLinks(db, companyId, input);
  const values = toColumns(input);
  if (input.isDefault === true) values.isDefault = 1;
  await t
    .updateTable('whatsapps')
    .set((eb) => ({ ...values, updatedAt: nowIso(), version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .execute()
    .catch(rethrowTokenInUse);
  if (input.isDefault === true) await makeSoleDefault(db, companyId, id);
  if (input.queueIds) await replaceConnectionQueues(db, companyId, id, input.queueIds);
  tx.effects.poke(companyId);
  await emit(tx, change(companyId, 'whatsapp', 'update', id));
  return getConnection(db, actor, companyId, id);
}

/**
 * The first write of a connection's delete (DELETE /whatsapp/{id}): marks it `deletingSince`, and
 * DISCONNECTED with no QR, as its session ends next. From then on no session starts on it, at boot,
 * on another instance or asked for (channels/session-manager.ts): its WhatsApp keys are wiped a
 * slice at a time (wipeConnectionKeysSlice), and a new pairing must not read what is left of them.
 * A connection marked already (a delete cut short) stays as it is.
 */
export async function beginConnectionDelete(tx: Tx, companyId: number, id: number): Promise<void> {
  const t = tenant(tx.db, companyId);
  const row = await t.selectFrom('whatsapps').select(['id', 'deletingSince']).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
  if (row.deletingSince !== null) return;
  const now = nowIso();
  await t
    .updateTable('whatsapps')
    .set((eb) => ({ deletingSince: now, status: 'DISCONNECTED', qrcode: '', retries: 0, updatedAt: now, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .execute();
  tx.effects.poke(companyId);
  await emit(tx, change(companyId, 'whatsapp', 'update', id));
}

/**
 * One slice of a connection's delete, run once its session ended with its keys kept (the route:
 * beginConnectionDelete, then `sessions.forget(id, { keepStore: true })`): up to `limit` of its
 * WhatsApp keys deleted; answers how many. A busy number holds tens of thousands (a Signal session
 * per contact device, pre-keys, its address book): in the delete's one write, 20,000 held SQLite's
 * writer 40 ms with the commit of their pages. Only a connection marked for deletion: a live one's
 * keys are its pairing. Its credentials row goes with the connection's. Another company's id
 * matches nothing.
 */
export async function wipeConnectionKeysSlice(tx: Tx, companyId: number, id: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  const marked = await t.selectFrom('whatsapps').select('id').where('id', '=', id).where('deletingSince', 'is not', null).executeTakeFirst();
  if (!marked) return 0;
  // The ids first (db/slices.ts says why): a key's is its (type, id) under the connection.
  const keys = await t.selectFrom('baileysKeys').select(['baileysKeys.type', 'baileysKeys.keyId']).where('baileysKeys.whatsappId', '=', id).limit(limit).execute();
  if (keys.length === 0) return 0;
  // By primary key: searching the company's (company, connection) index, SQLite read every key of
  // the connection again for each slice.
  await tenant(tx.db, companyId, 'check')
    .deleteFrom('baileysKeys')
    .where('baileysKeys.whatsappId', '=', id)
    .where((eb) => eb(eb.refTuple('baileysKeys.type', 'baileysKeys.keyId'), 'in', keys.map((k) => eb.tuple(k.type, k.keyId))))
    .execute();
  return keys.length;
}

/**
 * Deletes a connection; when it was the default, the oldest remaining connection becomes the default.
 * Its outbox rows go with it (foreign key cascade), so what still waited to leave through it fails
 * here, in the same write, as ERR_NO_WAPP_FOUND (their origins told), rather than stay queued for
 * good. Its session ended before the slices (the route); should one have started just before the
 * mark, it ends after the commit: the row is gone, so it unlinks without writing to it.
 */
export async function deleteConnection(tx: Tx, companyId: number, id: number): Promise<{ promotedId?: number }> {
  connectionsChanged(tx);
  const t = tenant(tx.db, companyId);
  const row = await t.selectFrom('whatsapps').select(['id', 'isDefault']).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
  await failWaitingMessages(tx, companyId, id);
  await detachConnection(tx, companyId, id);
  await t.deleteFrom('whatsapps').where('id', '=', id).execute();
  tx.effects.poke(companyId);
  await emit(tx, change(companyId, 'whatsapp', 'delete', id));
  tx.effects.afterCommit((app) => app.sessions.forget(id));
  if (row.isDefault !== 1) return {};
  const heir = await t.selectFrom('whatsapps').select('id').orderBy('id').executeTakeFirst();
  if (!heir) return {};
  await t
    .updateTable('whatsapps')
    .set((eb) => ({ isDefault: 1, updatedAt: nowIso(), version: eb('version', '+', 1) }))
    .where('id', '=', heir.id)
    .execute();
  return { promotedId: heir.id };
}

/**
 * One slice of a connection's delete, run before its write (the route repeats it in writes of their
 * own: db/slices.ts): up to `limit` of its tickets, then contacts (versions bumped, as
 * `detachConnection` does), then messages and ticket trackings let go of it; answers how many did.
 * In the delete's one write, nulling a busy number's references held SQLite's writer 0.9 s per
 * 100,000 messages (the foreign key's action), 15 ms per 20,000 trackings, stopping every company's
 * traffic; that write now finds only the few that arrived meanwhile. Each table is searched by the
 * connection (migration 20261130T200000), the company a check on each row: by the company's own
 * index each slice walked its tickets or contacts from the first. An unknown id (or another
 * company's) matches nothing.
 */
export async function releaseConnectionSlice(tx: Tx, companyId: number, id: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId, 'check');
  let left = limit;
  for (const table of ['tickets', 'contacts', 'messages', 'ticketTrackings'] as const) {
    if (left === 0) break;
    // The ids first (db/slices.ts says why); Kysely cannot type a column of a table chosen at run
    // time, hence the casts.
    const idColumn = `${table}.id` as 'tickets.id';
    const ids = (await t.selectFrom(table).select(idColumn).where(`${table}.whatsappId` as 'tickets.whatsappId', '=', id).limit(left).execute()).map((r) => r.id);
    if (ids.length === 0) continue;
    // A message's connection and a tracking are not synced: no version to move.
    const synced = table === 'tickets' || table === 'contacts';
    await t.updateTable(table).set(synced ? { whatsappId: null, ...bumpVersion() } : { whatsappId: null }).where(idColumn, 'in', ids).execute();
    if (synced) tx.effects.poke(companyId);
    left -= ids.length;
  }
  return limit - left;
}

/**
 * Rows of a deleted connection's outbox failed per slice (db/slices.ts): failing one costs ~190 µs
 * (its message, its event, its outbox row), so a number that went down with 10,000 replies waiting
 * froze the server's thread for the 1.5 s of the delete's write.
 */
export const FAIL_SLICE_ROWS = 100;

/**
 * One slice of a connection's delete, run before its write: up to `limit` of its queued outbox rows
 * taken (the conditional update a lane's claim makes: a row a lane took meanwhile is left to the
 * delete's write) and failed ERR_NO_WAPP_FOUND; answers how many. Another company's id matches none.
 */
export async function failQueuedSlice(tx: Tx, companyId: number, id: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  const ids = (await t.selectFrom('outbox').select('outbox.id').where('outbox.whatsappId', '=', id).where('outbox.state', '=', 'queued').limit(limit).execute()).map((r) => r.id);
  if (ids.length === 0) return 0;
  const taken = await t
    .updateTable('outbox')
    .set({ state: 'sending', claimedBy: 'connection-delete', claimedAt: nowIso() })
    .where('outbox.id', 'in', ids)
    .where('outbox.state', '=', 'queued')
    .returning(['outbox.id', 'outbox.messageId', 'outbox.origin'])
    .execute();
  for (const row of taken) await recordFailed(tx, companyId, row, 'ERR_NO_WAPP_FOUND');
  return ids.length;
}

/** The connection's outbox and any message still marked queued on it: failed, version bumped. */
async function failWaitingMessages(tx: Tx, companyId: number, id: number) {
  const t = tenant(tx.db, companyId);
  const rows = await t.selectFrom('outbox').select(['outbox.id', 'outbox.messageId', 'outbox.origin']).where('outbox.whatsappId', '=', id).execute();
  for (const row of rows) await recordFailed(tx, companyId, row, 'ERR_NO_WAPP_FOUND');
  // A queued message without an outbox row (none should exist) must not wait forever either.
  await t
    .updateTable('messages')
    .set({ sendStatus: 'failed', sendError: 'ERR_NO_WAPP_FOUND', ...bumpVersion() })
    .where('messages.whatsappId', '=', id)
    .where('messages.sendStatus', '=', 'queued')
    .execute();
}

/**
 * Tickets and contacts show their connection: the foreign key would null it without a version
 * bump, invisible to sync, so it is nulled here first, versions bumped.
 */
async function detachConnection(tx: Tx, companyId: number, id: number) {
  // By the connection's own indexes (see releaseConnectionSlice).
  const t = tenant(tx.db, companyId, 'check');
  await t.updateTable('tickets').set({ whatsappId: null, ...bumpVersion() }).where('tickets.whatsappId', '=', id).execute();
  await t.updateTable('contacts').set({ whatsappId: null, ...bumpVersion() }).where('contacts.whatsappId', '=', id).execute();
  await detachCampaigns(tx, companyId, 'whatsappId', id);
}
