import type { Connection } from '@zapdesk/sync';
import { column, type Shown } from '../../present.ts';

export const connectionColumns = [
  column<Connection>('id', (w) => w.id),
  column<Connection>('name', (w) => w.name),
  column<Connection>('status', (w) => w.status),
  column<Connection>('number', (w) => w.number),
  column<Connection>('provider', (w) => w.provider),
  column<Connection>('default', (w) => w.isDefault),
  column<Connection>('queues', (w) => w.queues.map((q) => q.name)),
];

export const showConnection = (w: Connection): Shown => ({
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
