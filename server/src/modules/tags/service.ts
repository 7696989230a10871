// The business rules of tags and ticket tags (spec/02 §5-§7). Writes take the route's transaction
// (`Tx`, DESIGN §12) and the Actor, and register the company's poke on it: tags and the tickets
// that carry them are in every user's client view.
import { AppError, can, type TagCreateInput, type Tag, type TagSyncInput, type TagUpdateInput, type TicketTagRef } from '@zapdesk/sync';
import { assertPlanAllows } from '../../auth/plan-gate.ts';
import type { Actor } from '../../context.ts';
import { nowIso, type Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { toTagDto } from './dto.ts';
import { findForeignTagIds, findTagByName, findTagRow, findTicketIdsWithTag, findTicketTags } from './queries.ts';
import { bumpTicketVersions, getVisibleTicket } from './ticket-access.ts';
import { detachCampaigns } from '../campaigns/detach.ts';
import { forgetDoNotContactTag } from '../campaigns/settings.ts';

export type TicketTagsResult = { ticketId: number; tags: TicketTagRef[] };

function invalid(path: string, message: string): AppError {
  return new AppError('ERR_VALIDATION', `${path}: ${message}`, { issues: [{ path, message }] });
}

const duplicateName = () => invalid('name', 'A tag with this name already exists');

/** The kanban switch belongs to admins and supervisors (spec/02 §5-§6); turning it on needs the plan's kanban. */
async function assertMaySetKanban(db: Database, actor: Actor, kanban: number) {
  if (!can(actor, 'tag-modal:kanban')) throw new AppError('ERR_NO_PERMISSION', 'Only admins and supervisors may set the kanban flag.');
  if (kanban === 1) await assertPlanAllows(db, actor.companyId, 'kanban');
}

export async function getTag(db: Database, actor: Actor, tagId: number): Promise<Tag> {
  const row = await findTagRow(db, actor.companyId, tagId);
  if (!row) throw new AppError('ERR_NOT_FOUND', 'Tag not found.');
  return toTagDto(row);
}

export async function createTag(tx: Tx, actor: Actor, input: TagCreateInput): Promise<Tag> {
  const { db } = tx;
  if (input.kanban === 1) await assertMaySetKanban(db, actor, input.kanban);
  if (await findTagByName(db, actor.companyId, input.name)) throw duplicateName();
  try {
    const row = await tenant(db, actor.companyId)
      .insertInto('tags', { name: input.name, color: input.color, kanban: input.kanban, userId: actor.userId })
      .returningAll()
      .executeTakeFirstOrThrow();
    tx.effects.poke(actor.companyId);
    return toTagDto(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateName();
    throw err;
  }
}

export async function updateTag(tx: Tx, actor: Actor, tagId: number, input: TagUpdateInput): Promise<Tag> {
  const { db } = tx;
  const current = await findTagRow(db, actor.companyId, tagId);
  if (!current) throw new AppError('ERR_NOT_FOUND', 'Tag not found.');
  // Forms send the whole tag back; only a change of the flag needs the permission.
  if (input.kanban !== undefined && input.kanban !== current.kanban) await assertMaySetKanban(db, actor, input.kanban);
  if (input.name !== undefined && (await findTagByName(db, actor.companyId, input.name, tagId))) throw duplicateName();
  try {
    const row = await tenant(db, actor.companyId)
      .updateTable('tags')
      .set((eb) => ({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.color !== undefined ? { color: input.color } : {}),
        ...(input.kanban !== undefined ? { kanban: input.kanban } : {}),
        version: eb('tags.version', '+', 1),
        updatedAt: nowIso(),
      }))
      .where('tags.id', '=', tagId)
      .returningAll()
      .executeTakeFirstOrThrow();
    tx.effects.poke(actor.companyId);
    return toTagDto(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateName();
    throw err;
  }
}

/**
 * One slice of a tag's delete, run before its write (the route repeats it in writes of their own:
 * db/slices.ts): up to `limit` tickets let go of the tag, their versions bumped (a synced ticket
 * carries its tags); answers how many. Done in the delete's one write, a tag on 50,000 tickets
 * failed outright (one statement with more ids than SQLite takes: a 500), and short of that held the
 * writer for every company. Another company's tag id matches none of its links.
 */
export async function releaseTagSlice(tx: Tx, companyId: number, tagId: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  const ticketIds = (await t.selectFrom('ticketTags').select('ticketTags.ticketId').where('ticketTags.tagId', '=', tagId).limit(limit).execute()).map((r) => r.ticketId);
  if (ticketIds.length === 0) return 0;
  await bumpTicketVersions(tx.db, companyId, ticketIds);
  await t.deleteFrom('ticketTags').where('ticketTags.tagId', '=', tagId).where('ticketTags.ticketId', 'in', ticketIds).execute();
  tx.effects.poke(companyId);
  return ticketIds.length;
}

/** The delete's last write: what links are left (added since the slices) go with the tag. */
export async function deleteTag(tx: Tx, actor: Actor, tagId: number): Promise<void> {
  const { db } = tx;
  if (!(await findTagRow(db, actor.companyId, tagId))) throw new AppError('ERR_NOT_FOUND', 'Tag not found.');
  // The cascade removes the ticket links; the tickets that carried the tag change in the view.
  await bumpTicketVersions(db, actor.companyId, await findTicketIdsWithTag(db, actor.companyId, tagId));
  await detachCampaigns(tx, actor.companyId, 'tagId', tagId);
  await forgetDoNotContactTag(tx, actor.companyId, tagId);
  await tenant(db, actor.companyId).deleteFrom('tags').where('tags.id', '=', tagId).execute();
  tx.effects.poke(actor.companyId);
}

async function readTicketTags(db: Database, companyId: number, ticketId: number): Promise<TicketTagsResult> {
  const tags = await findTicketTags(db, companyId, [ticketId]);
  return { ticketId, tags: tags.get(ticketId) ?? [] };
}

async function assertOwnTags(db: Database, companyId: number, tagIds: number[]) {
  const foreign = await findForeignTagIds(db, companyId, tagIds);
  if (foreign.length > 0) throw new AppError('ERR_NOT_FOUND', `No tag ${foreign.join(', ')} in this company.`);
}

/** POST /tags/sync: the ticket's tags become exactly the given ones. */
export async function syncTicketTags(tx: Tx, actor: Actor, input: TagSyncInput): Promise<TicketTagsResult> {
  const { db } = tx;
  await getVisibleTicket(db, actor, input.ticketId);
  await assertOwnTags(db, actor.companyId, input.tags);
  const t = tenant(db, actor.companyId);
  await t.deleteFrom('ticketTags').where('ticketTags.ticketId', '=', input.ticketId).execute();
  if (input.tags.length > 0) {
    await t.insertInto('ticketTags', input.tags.map((tagId) => ({ ticketId: input.ticketId, tagId }))).execute();
  }
  await bumpTicketVersions(db, actor.companyId, [input.ticketId]);
  tx.effects.poke(actor.companyId);
  return readTicketTags(db, actor.companyId, input.ticketId);
}

/** PUT /ticket-tags/{ticketId}/{tagId}: adds one tag; adding it twice changes nothing. */
export async function addTicketTag(tx: Tx, actor: Actor, ticketId: number, tagId: number): Promise<TicketTagsResult> {
  const { db } = tx;
  await getVisibleTicket(db, actor, ticketId);
  if (!(await findTagRow(db, actor.companyId, tagId))) throw new AppError('ERR_NOT_FOUND', 'Tag not found.');
  const inserted = await tenant(db, actor.companyId)
    .insertInto('ticketTags', { ticketId, tagId })
    .onConflict((oc) => oc.columns(['ticketId', 'tagId']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) await bumpTicketVersions(db, actor.companyId, [ticketId]);
  tx.effects.poke(actor.companyId);
  return readTicketTags(db, actor.companyId, ticketId);
}

/** DELETE /ticket-tags/{ticketId}: takes the ticket off its kanban lane (its kanban tags); other tags stay. */
export async function removeKanbanTags(tx: Tx, actor: Actor, ticketId: number): Promise<TicketTagsResult> {
  const { db } = tx;
  await getVisibleTicket(db, actor, ticketId);
  const t = tenant(db, actor.companyId);
  const kanbanTagIds = (await t.selectFrom('tags').select('tags.id').where('tags.kanban', '=', 1).execute()).map((r) => r.id);
  if (kanbanTagIds.length > 0) {
    const result = await t
      .deleteFrom('ticketTags')
      .where('ticketTags.ticketId', '=', ticketId)
      .where('ticketTags.tagId', 'in', kanbanTagIds)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) > 0) await bumpTicketVersions(db, actor.companyId, [ticketId]);
  }
  tx.effects.poke(actor.companyId);
  return readTicketTags(db, actor.companyId, ticketId);
}
