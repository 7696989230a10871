import type { Announcement } from '@zapdesk/sync';
import { column, type Shown } from '../../present.ts';

const PRIORITY = { 1: 'high', 2: 'medium', 3: 'low' } as Record<number, string>;

export const announcementColumns = [
  column<Announcement>('id', (a) => a.id),
  column<Announcement>('title', (a) => a.title),
  column<Announcement>('priority', (a) => PRIORITY[a.priority] ?? a.priority),
  column<Announcement>('active', (a) => a.status),
  column<Announcement>('updated', (a) => a.updatedAt),
];

export const showAnnouncement = (a: Announcement): Shown => ({
  kind: 'record',
  title: `Announcement ${a.id}: ${a.title}`,
  fields: [
    ['priority', PRIORITY[a.priority] ?? a.priority],
    ['active', a.status],
    ['media', a.mediaName],
    ['text', a.text],
    ['updated', a.updatedAt],
  ],
});
