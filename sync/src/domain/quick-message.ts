import { z } from 'zod';
import { listQuerySchema, timestampSchema } from './common.ts';
import { refIdSchema } from './tag.ts';

// Quick messages (spec/02 §3, §5, §7): `geral` ones are shared with the company, others belong to
// their user alone. `quickMessageSchema` is the one wire shape: GET /quick-messages/{id} answers it
// and the sync view puts it at `quickMessage/<id>`.

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

/** A quick message as the REST answers carry it and as the client view holds it (`quickMessage/<id>`). */
export const quickMessageSchema = z.object({
  id: z.number().int(),
  shortcode: z.string().describe('What the attendant types after "/" to pick it'),
  message: z.string(),
  mediaPath: z.string().nullable().describe('The attachment, relative to the media folder; read it at GET /quick-messages/{id}/media'),
  mediaName: z.string().nullable().describe("The attachment's file name as uploaded"),
  geral: z.boolean().describe("true: shared with the whole company; false: the author's own"),
  status: z.boolean().describe('false: hidden from the "/" quick answers'),
  isMedia: z.boolean().describe('true when there is an attachment'),
  userId: z.number().int().nullable().describe('The author'),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type QuickMessage = z.infer<typeof quickMessageSchema>;

export const quickMessageKey = (id: number) => `quickMessage/${id}`;
