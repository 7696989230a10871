// The one row → wire mapper of contact lists and their items (sync/src/domain/contact-list.ts):
// every REST answer sends what these return.
import type { ContactList, ContactListItem } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { ContactListItems, ContactLists } from '../../db/schema.ts';

export function toContactListDto(row: Selectable<ContactLists>, contactsCount: number): ContactList {
  return { id: row.id, name: row.name, contactsCount, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

export function toContactListItemDto(row: Selectable<ContactListItems>): ContactListItem {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    isWhatsappValid: row.isWhatsappValid === null ? null : row.isWhatsappValid === 1,
    companyId: row.companyId,
    contactListId: row.contactListId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
