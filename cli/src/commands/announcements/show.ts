import type { AnnouncementDto } from '@zapdesk/sync';
import { column, type Shown } from '../../present.ts';

const PRIORITY = { 1: 'high', 2: 'medium', 3: 'low' } as Record<number, string>;

export const announcementColumns = [
  column<AnnouncementDto>('id', (a) => a.id),
  column<AnnouncementDto>('title', (a) => a.title),
  column<AnnouncementDto>('priority', (a) => PRIORITY[a.priority] ?? a.priority),
  column<AnnouncementDto>('active', (a) => a.status),
  column<AnnouncementDto>('updated', (a) => a.updatedAt),
];

export const showAnnouncement = (a: AnnouncementDto): Shown => ({
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
