// Data functions of contact lists and items: the database handle (often a transaction) first, the
// company second; every query goes through the company filter (db/tenant.ts).
import { PAGE_SIZE, type ContactList, type ContactListItem } from '@zapdesk/sync';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { likeFolded, toLikePattern } from '../../db/like.ts';
import { tenant } from '../../db/tenant.ts';
import { toContactListDto, toContactListItemDto } from './dto.ts';

const like = (search: string) => toLikePattern(search);

/** The lists of the company with how many items each holds, by name. */
function selectLists(db: Database, companyId: number) {
  return tenant(db, companyId)
    .selectFrom('contactLists')
    .selectAll('contactLists')
    .select((eb) =>
      eb
        .selectFrom('contactListItems')
        .select(eb.fn.countAll<number>().as('n'))
        .where('contactListItems.companyId', '=', companyId)
        .whereRef('contactListItems.contactListId', '=', 'contactLists.id')
        .as('contactsCount'),
    );
}

export async function findContactListsPage(db: Database, companyId: number, search: string, pageNumber: number) {
  let query = selectLists(db, companyId);
  if (search) query = query.where((eb) => likeFolded(eb.ref('contactLists.name'), search));
  const rows = await query
    .orderBy('contactLists.name')
    .orderBy('contactLists.id')
    .limit(PAGE_SIZE + 1)
    .offset((pageNumber - 1) * PAGE_SIZE)
    .execute();
  const records: ContactList[] = rows.slice(0, PAGE_SIZE).map((r) => toContactListDto(r, Number(r.contactsCount ?? 0)));
  return { records, hasMore: rows.length > PAGE_SIZE };
}

export async function findAllContactLists(db: Database, companyId: number): Promise<ContactList[]> {
  const rows = await selectLists(db, companyId).orderBy('contactLists.name').orderBy('contactLists.id').execute();
  return rows.map((r) => toContactListDto(r, Number(r.contactsCount ?? 0)));
}

export async function findContactList(db: Database, companyId: number, listId: number): Promise<ContactList | undefined> {
  const row = await selectLists(db, companyId).where('contactLists.id', '=', listId).executeTakeFirst();
  return row && toContactListDto(row, Number(row.contactsCount ?? 0));
}

/** One page of a list's items by name, searched over name, number and email. */
export async function findContactListItemsPage(db: Database, companyId: number, listId: number, search: string, pageNumber: number) {
  let query = tenant(db, companyId).selectFrom('contactListItems').selectAll('contactListItems').where('contactListItems.contactListId', '=', listId);
  if (search) {
    const pattern = like(search);
    query = query.where((eb) =>
      eb.or([
        likeFolded(eb.ref('contactListItems.name'), search),
        sql<boolean>`${eb.ref('contactListItems.number')} like ${pattern} escape '\\'`,
        likeFolded(eb.ref('contactListItems.email'), search),
      ]),
    );
  }
  const rows = await query
    .orderBy('contactListItems.name')
    .orderBy('contactListItems.id')
    .limit(PAGE_SIZE + 1)
    .offset((pageNumber - 1) * PAGE_SIZE)
    .execute();
  const contacts: ContactListItem[] = rows.slice(0, PAGE_SIZE).map(toContactListItemDto);
  return { contacts, hasMore: rows.length > PAGE_SIZE };
}

export async function findContactListItemRow(db: Database, companyId: number, itemId: number) {
  return tenant(db, companyId).selectFrom('contactListItems').selectAll('contactListItems').where('contactListItems.id', '=', itemId).executeTakeFirst();
}
