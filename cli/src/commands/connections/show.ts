import type { Connection } from '@zapdesk/sync';
import { column, type Shown } from '../../present.ts';

/** The status, and whether a delete of it was cut short (deleting it again finishes it). */
const statusOf = (w: Connection) => (w.deleting ? `${w.status} (being deleted)` : w.status);

export const connectionColumns = [
  column<Connection>('id', (w) => w.id),
  column<Connection>('name', (w) => w.name),
  column<Connection>('status', (w) => statusOf(w)),
  column<Connection>('number', (w) => w.number),
  column<Connection>('provider', (w) => w.provider),
  column<Connection>('default', (w) => w.isDefault),
  column<Connection>('queues', (w) => w.queues.map((q) => q.name)),
];

export const showConnection = (w: Connection): Shown => ({
  kind: 'record',
  title: `Connection ${w.id}: ${w.name}`,
  fields: [
    ['status', statusOf(w)],
    ['number', w.number],
    ['provider', w.provider],
    ['default', w.isDefault],
    ['queues', w.queues.map((q) => q.name)],
    ['updated', w.updatedAt],
  ],
});
