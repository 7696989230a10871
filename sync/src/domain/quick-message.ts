import { z } from 'zod';
import { listQuerySchema } from './common.ts';
import { refIdSchema } from './tag.ts';

// Quick messages (spec/02 §3, §5, §7): `geral` ones are shared with the company, others belong to
// their user alone.

/** Forms send booleans, sometimes as strings from multipart fields. */
const boolish = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => v === true || v === 'true');

export const quickMessageCreateSchema = z.object({
  shortcode: z.string({ error: 'Obrigatório' }).trim().min(1, 'Obrigatório').max(100, 'Too Long!'),
  message: z.string().max(10_000, 'Too Long!').optional().default(''),
  geral: boolish.optional().default(false),
  status: boolish.optional().default(true),
});
export type QuickMessageCreateInput = z.infer<typeof quickMessageCreateSchema>;

export const quickMessageUpdateSchema = z.object({
  shortcode: z.string({ error: 'Obrigatório' }).trim().min(1, 'Obrigatório').max(100, 'Too Long!').optional(),
  message: z.string().max(10_000, 'Too Long!').optional(),
  geral: boolish.optional(),
  status: boolish.optional(),
});
export type QuickMessageUpdateInput = z.infer<typeof quickMessageUpdateSchema>;

/** `userId` is what the web sends; only the caller's own id is meaningful (see the service). */
export const quickMessageListQuerySchema = listQuerySchema.extend({
  userId: refIdSchema.optional(),
});
export type QuickMessageListQuery = z.infer<typeof quickMessageListQuerySchema>;

export const quickMessageAllQuerySchema = z.object({
  companyId: refIdSchema.optional(),
  userId: refIdSchema.optional(),
});

export type QuickMessageDto = {
  id: number;
  shortcode: string;
  message: string;
  mediaPath: string | null;
  mediaName: string | null;
  geral: boolean;
  status: boolean;
  isMedia: boolean;
  userId: number | null;
  createdAt: string;
  updatedAt: string;
};

export const quickMessageKey = (id: number) => `quickMessage/${id}`;
