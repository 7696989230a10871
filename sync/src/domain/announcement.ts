import { z } from 'zod';
import { timestampSchema, listQuerySchema, type Page } from './common.ts';

// Announcements (spec/02 §3, §5): platform-wide notices from the super-admin: the request bodies and
// the one shape every transport sends.

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

/**
 * An announcement as GET /announcements/{id} answers it and announcement/<id> syncs it: the active
 * ones for everyone, every one for the super-admin.
 */
export const announcementSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  text: z.string(),
  priority: z.number().int().describe('1 high (red), 2 medium (orange), 3 low (grey)'),
  status: z.boolean().describe('Active: shown to every company'),
  mediaPath: z.string().nullable().describe('Where the picture is stored; GET /announcements/{id}/media serves it'),
  mediaName: z.string().nullable().describe('The picture\'s original file name'),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Announcement = z.infer<typeof announcementSchema>;

/** GET /announcements: one page of the search. */
export type AnnouncementsPage = Page<'records', Announcement> & { count: number };

export const announcementKey = (id: number) => `announcement/${id}`;
