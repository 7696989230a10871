// Announcement flags: the fields of announcementCreateSchema/announcementUpdateSchema from sync/.
import { z } from 'zod';
import { fromFileOption } from '../../input.ts';

export const announcementOptions = z.object({
  fromFile: fromFileOption,
  title: z.string().optional().describe('title'),
  text: z.string().optional().describe('the notice shown to every company'),
  priority: z.enum(['1', '2', '3']).optional().describe('1 high, 2 medium, 3 low (default 3)'),
  status: z.boolean().optional().describe('active (shown)'),
});
