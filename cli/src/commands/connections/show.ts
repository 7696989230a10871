import type { Whatsapp } from '@zapdesk/sync';
import { column, type Shown } from '../../present.ts';

export const connectionColumns = [
  column<Whatsapp>('id', (w) => w.id),
  column<Whatsapp>('name', (w) => w.name),
  column<Whatsapp>('status', (w) => w.status),
  column<Whatsapp>('number', (w) => w.number),
  column<Whatsapp>('provider', (w) => w.provider),
  column<Whatsapp>('default', (w) => w.isDefault),
  column<Whatsapp>('queues', (w) => w.queues.map((q) => q.name)),
];

export const showConnection = (w: Whatsapp): Shown => ({
  kind: 'record',
  title: `Connection ${w.id}: ${w.name}`,
  fields: [
    ['status', w.status],
    ['number', w.number],
    ['provider', w.provider],
    ['default', w.isDefault],
    ['queues', w.queues.map((q) => q.name)],
    ['updated', w.updatedAt],
  ],
});
