import type { Help } from '@zapdesk/sync';
import { column, type Shown } from '../../present.ts';

export const helpColumns = [
  column<Help>('id', (h) => h.id),
  column<Help>('title', (h) => h.title),
  column<Help>('video', (h) => h.video),
  column<Help>('description', (h) => (h.description && h.description.length > 60 ? `${h.description.slice(0, 59)}…` : h.description)),
];

export const showHelp = (h: Help): Shown => ({
  kind: 'record',
  title: `Help ${h.id}: ${h.title}`,
  fields: [
    ['video', h.video ? `https://www.youtube.com/watch?v=${h.video}` : null],
    ['link', h.link],
    ['description', h.description],
    ['updated', h.updatedAt],
  ],
});
