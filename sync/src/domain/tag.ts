import { z } from 'zod';
import { idSchema, listQuerySchema, queryBool, timestampSchema } from './common.ts';

// Tags, ticket tags and the kanban (spec/02 §3, §5, §7): request bodies and queries, and
// `tagSchema`, the one wire shape of a tag: GET /tags/{id} answers it and the sync view puts it at
// `tag/<id>`.

export const DEFAULT_TAG_COLOR = '#A4CCCC';

/**
 * An id in a body or query that refers to a row. Ids are 32-bit integers in both databases: a
 * larger number names no row, and PostgreSQL would fail the comparison, so it is a validation
 * error here rather than a failed query.
 */
export const refIdSchema = idSchema.max(2_147_483_647, 'No such id');

/** The kanban flag is 0 or 1 in the spec; forms may send a boolean. */
export const kanbanFlagSchema = z
  .union([z.literal(0), z.literal(1), z.boolean()])
  .transform((v): 0 | 1 => (v === true || v === 1 ? 1 : 0));

export const tagColorSchema = z.string().trim().regex(/^#[0-9a-fA-F]{3,8}$/, 'Use a hex colour such as #A4CCCC');

export const tagNameSchema = z.string().trim().min(3, 'Too Short!').max(100, 'Too Long!');

export const tagCreateSchema = z.object({
  name: tagNameSchema,
  color: tagColorSchema.optional().default(DEFAULT_TAG_COLOR),
  kanban: kanbanFlagSchema.optional().default(0),
  /** Sent by the forms; the creator is always the signed-in user, so this is ignored. */
  userId: z.unknown().optional(),
});
export type TagCreateInput = z.infer<typeof tagCreateSchema>;

export const tagUpdateSchema = z.object({
  name: tagNameSchema.optional(),
  color: tagColorSchema.optional(),
  kanban: kanbanFlagSchema.optional(),
  userId: z.unknown().optional(),
});
export type TagUpdateInput = z.infer<typeof tagUpdateSchema>;

export const tagListQuerySchema = listQuerySchema;

/** POST /tags/sync: the ticket's tags become exactly these. */
export const tagSyncSchema = z.object({
  ticketId: refIdSchema,
  tags: z
    .array(z.object({ id: refIdSchema }).loose())
    .max(100)
    .transform((tags) => [...new Set(tags.map((t) => t.id))]),
});
export type TagSyncInput = z.infer<typeof tagSyncSchema>;

/** `queueIds` arrives as a JSON array in the query string (`[1,2]`), as "1,2", or as repeated values. */
const queueIdsQuerySchema = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  const s = v.trim();
  if (s === '') return [];
  if (!s.startsWith('[')) return s.split(',').filter((x) => x !== '');
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return v;
  }
}, z.array(refIdSchema).max(500));

export const kanbanQuerySchema = z.object({
  queueIds: queueIdsQuerySchema.optional().default([]),
  /** Honoured only for admins (spec/02 §6). */
  showAll: queryBool.optional().default(false),
});
export type KanbanQuery = z.infer<typeof kanbanQuerySchema>;

/** A tag as GET /tags/{id} and /tags/list answer it and as the client view holds it (`tag/<id>`). */
export const tagSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string().describe('Hex colour, e.g. #A4CCCC'),
  kanban: z.union([z.literal(0), z.literal(1)]).describe('1: the tag is a lane of the kanban board'),
  userId: z.number().int().nullable().describe('Who created the tag'),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Tag = z.infer<typeof tagSchema>;

/** A row of GET /tags (the paginated list): the tag and how many tickets carry it. */
export const tagWithCountSchema = tagSchema.extend({ ticketsCount: z.number().int() });
export type TagWithCount = z.infer<typeof tagWithCountSchema>;

/** A tag as a ticket's tag list shows it (POST /tags/sync, the kanban board). */
export type TicketTagRef = Pick<Tag, 'id' | 'name' | 'color' | 'kanban'>;

export const tagKey = (id: number) => `tag/${id}`;
