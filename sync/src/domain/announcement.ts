import { z } from 'zod';
import { listQuerySchema } from './common.ts';

// Announcements (spec/02 §3, §5): platform-wide notices from the super-admin.

export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;
/** Colour of each priority: 1 high, 2 medium, 3 low. */
export const ANNOUNCEMENT_PRIORITY_COLORS = { 1: 'red', 2: 'orange', 3: 'grey' } as const;

const prioritySchema = z.coerce.number().int().min(1).max(3);
const statusSchema = z.union([z.boolean(), z.literal(0), z.literal(1), z.enum(['true', 'false'])]).transform((v) => v === true || v === 1 || v === 'true');

export const announcementCreateSchema = z.object({
  title: z.string({ error: 'Required' }).trim().min(1, 'Required').max(200, 'Too Long!'),
  text: z.string({ error: 'Required' }).trim().min(1, 'Required').max(10_000, 'Too Long!'),
  priority: prioritySchema.optional().default(3),
  status: statusSchema.optional().default(true),
});
export type AnnouncementCreateInput = z.infer<typeof announcementCreateSchema>;

export const announcementUpdateSchema = z.object({
  title: z.string().trim().min(1, 'Required').max(200, 'Too Long!').optional(),
  text: z.string().trim().min(1, 'Required').max(10_000, 'Too Long!').optional(),
  priority: prioritySchema.optional(),
  status: statusSchema.optional(),
});
export type AnnouncementUpdateInput = z.infer<typeof announcementUpdateSchema>;

export const announcementListQuerySchema = listQuerySchema;

export type AnnouncementDto = {
  id: number;
  title: string;
  text: string;
  priority: number;
  status: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: string;
  updatedAt: string;
};

export const announcementKey = (id: number) => `announcement/${id}`;
