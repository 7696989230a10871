// The business rules of contact lists and their items (spec/03 §3, §5, §7). Writes take the
// route's transaction (`Tx`, DESIGN §12) and the Actor and register the company's poke: the lists
// are on paginated REST (DESIGN §4), so clients that show them refetch on the poke. Whether a
// number is on WhatsApp is asked of the channel after the commit (whatsapp-check.ts), never here.
import { AppError, type ContactList, type ContactListCreateInput, type ContactListItem, type ContactListItemCreateInput, type ContactListItemUpdateInput } from '@zapdesk/sync';
import { change, emit } from '../../events/emit.ts';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';
import { toContactListItemDto } from './dto.ts';
import { findContactList, findContactListItemRow } from './queries.ts';
import { detachCampaigns } from '../campaigns/detach.ts';

const listNotFound = () => new AppError('ERR_NOT_FOUND', 'Contact list not found.');
const itemNotFound = () => new AppError('ERR_NOT_FOUND', 'Contact list item not found.');
const duplicateNumber = () =>
  new AppError('ERR_DUPLICATED_CONTACT', 'number: This number is already in the list', { issues: [{ path: 'number', message: 'This number is already in the list' }] });

export async function getContactList(db: Database, actor: Actor, listId: number): Promise<ContactList> {
  const list = await findContactList(db, actor.companyId, listId);
  if (!list) throw listNotFound();
  return list;
}

export async function createContactList(tx: Tx, actor: Actor, input: ContactListCreateInput): Promise<ContactList> {
  const row = await tenant(tx.db, actor.companyId).insertInto('contactLists', { name: input.name }).returning('id').executeTakeFirstOrThrow();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'ContactList', 'create', row.id));
  return getContactList(tx.db, actor, row.id);
}

export async function updateContactList(tx: Tx, actor: Actor, listId: number, input: ContactListCreateInput): Promise<ContactList> {
  const result = await tenant(tx.db, actor.companyId)
    .updateTable('contactLists')
    .set({ name: input.name, ...bumpVersion() })
    .where('contactLists.id', '=', listId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw listNotFound();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'ContactList', 'update', listId));
  return getContactList(tx.db, actor, listId);
}

/**
 * One slice of a list's delete, run before its write (the route repeats it in writes of their own:
 * db/slices.ts): up to `limit` of its items deleted; answers how many. In the delete's one write,
 * the cascade of a list of 100,000 numbers held SQLite's writer 0.9-1.3 s, stopping every company's
 * traffic; a slice of 500 held it at most 37 ms (measured on SQLite). Another company's list id
 * matches none of its items.
 */
export async function emptyContactListSlice(tx: Tx, companyId: number, listId: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  // The ids first (db/slices.ts says why).
  const ids = (await t.selectFrom('contactListItems').select('contactListItems.id').where('contactListItems.contactListId', '=', listId).limit(limit).execute()).map((r) => r.id);
  if (ids.length > 0) await t.deleteFrom('contactListItems').where('contactListItems.id', 'in', ids).execute();
  return ids.length;
}

/**
 * What items are left go with the list (ON DELETE CASCADE); campaigns that used it keep their
 * recipients already written and lose the list, versions bumped (campaigns/detach.ts).
 */
/**
 * A list a programmed or running campaign sends to is not deleted (ERR_CONTACT_LIST_IN_USE, naming
 * them): the campaign would run with no recipients and finish having sent nothing. The route asks
 * before emptying the list; the delete's own write asks again.
 */
export async function assertContactListDeletable(db: Database, actor: Actor, listId: number): Promise<void> {
  const campaigns = await tenant(db, actor.companyId)
    .selectFrom('campaigns')
    .select(['campaigns.id', 'campaigns.name', 'campaigns.status'])
    .where('campaigns.contactListId', '=', listId)
    .where('campaigns.status', 'in', ['PROGRAMADA', 'EM_ANDAMENTO'])
    .orderBy('campaigns.id')
    .execute();
  if (campaigns.length === 0) return;
  throw new AppError('ERR_CONTACT_LIST_IN_USE', `Campaigns that have not finished send to this list (${campaigns.map((c) => c.name).join(', ')}): cancel them or choose another list first.`, {
    details: { campaigns },
  });
}

export async function deleteContactList(tx: Tx, actor: Actor, listId: number): Promise<void> {
  await assertContactListDeletable(tx.db, actor, listId);
  await detachCampaigns(tx, actor.companyId, 'contactListId', listId);
  const result = await tenant(tx.db, actor.companyId).deleteFrom('contactLists').where('contactLists.id', '=', listId).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw listNotFound();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'ContactList', 'delete', listId));
}

export async function getContactListItem(db: Database, actor: Actor, itemId: number): Promise<ContactListItem> {
  const row = await findContactListItemRow(db, actor.companyId, itemId);
  if (!row) throw itemNotFound();
  return toContactListItemDto(row);
}

export async function createContactListItem(tx: Tx, actor: Actor, input: ContactListItemCreateInput): Promise<ContactListItem> {
  // Another company's list is no list of ours: the same 404 as a list that does not exist.
  if (!(await findContactList(tx.db, actor.companyId, input.contactListId))) throw listNotFound();
  try {
    const row = await tenant(tx.db, actor.companyId)
      .insertInto('contactListItems', { contactListId: input.contactListId, name: input.name, number: input.number, email: input.email })
      .returningAll()
      .executeTakeFirstOrThrow();
    tx.effects.poke(actor.companyId);
    await emit(tx, change(actor.companyId, 'ContactListItem', 'create', row.id, { listId: row.contactListId }));
    return toContactListItemDto(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateNumber();
    throw err;
  }
}

/** A changed number is unknown to WhatsApp again until the channel is asked (isWhatsappValid null). */
export async function updateContactListItem(tx: Tx, actor: Actor, itemId: number, input: ContactListItemUpdateInput): Promise<ContactListItem> {
  const current = await findContactListItemRow(tx.db, actor.companyId, itemId);
  if (!current) throw itemNotFound();
  const numberChanged = input.number !== undefined && input.number !== current.number;
  try {
    const row = await tenant(tx.db, actor.companyId)
      .updateTable('contactListItems')
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.number !== undefined ? { number: input.number } : {}),
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(numberChanged ? { isWhatsappValid: null } : {}),
        ...bumpVersion(),
      })
      .where('contactListItems.id', '=', itemId)
      .returningAll()
      .executeTakeFirstOrThrow();
    tx.effects.poke(actor.companyId);
    await emit(tx, change(actor.companyId, 'ContactListItem', 'update', itemId, { listId: row.contactListId }));
    return toContactListItemDto(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateNumber();
    throw err;
  }
}

export async function deleteContactListItem(tx: Tx, actor: Actor, itemId: number): Promise<void> {
  const deleted = await tenant(tx.db, actor.companyId).deleteFrom('contactListItems').where('contactListItems.id', '=', itemId).returning('contactListItems.contactListId').executeTakeFirst();
  if (!deleted) throw itemNotFound();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'ContactListItem', 'delete', itemId, { listId: deleted.contactListId }));
}
