import type { ContactList } from '@zapdesk/sync';
import { column } from '../../present.ts';

export const contactListColumns = [
  column<ContactList>('id', (l) => l.id),
  column<ContactList>('name', (l) => l.name),
  column<ContactList>('contacts', (l) => l.contactsCount),
  column<ContactList>('updated', (l) => l.updatedAt),
];
