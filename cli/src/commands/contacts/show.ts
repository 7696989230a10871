import type { Contact } from '@zapdesk/sync';
import { column, type Shown } from '../../present.ts';

export const contactColumns = [
  column<Contact>('id', (c) => c.id),
  column<Contact>('name', (c) => c.name),
  column<Contact>('number', (c) => c.number),
  column<Contact>('email', (c) => c.email),
  column<Contact>('created', (c) => c.createdAt),
];

export const showContact = (c: Contact): Shown => ({
  kind: 'record',
  title: `Contact ${c.id}: ${c.name}`,
  fields: [
    ['number', c.number],
    ['email', c.email],
    ['group', c.isGroup],
    ['bot off', c.disableBot],
    ['connection', c.whatsappId],
    ...c.extraInfo.map((x): [string, unknown] => [x.name, x.value]),
    ['created', c.createdAt],
    ['updated', c.updatedAt],
  ],
});
