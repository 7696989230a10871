import { z } from 'zod';

export const PAGE_SIZE = 20;

// Ids are 32-bit in the database: a larger one is a validation error, not a failed query.
export const idSchema = z.coerce.number().int().positive().max(2_147_483_647);

/** `searchParam` and `pageNumber` of the paginated lists (spec/02 §7). */
export const listQuerySchema = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** Query-string booleans arrive as "true"/"false"/"1"/"0". */
export const queryBool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

export const emailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email({ error: 'Invalid email' }));

export const personNameSchema = z.string().trim().min(2, 'Too Short!').max(50, 'Too Long!');
export const passwordSchema = z.string().min(5, 'Too Short!').max(50, 'Too Long!');

export const enabledValue = z.enum(['enabled', 'disabled']);

export type Page<K extends string, T> = { [P in K]: T[] } & { hasMore: boolean };

/** The wire schema of a page of `item` under `key` (with `count` where the list tells the total). */
export function pageSchema<K extends string, T extends z.ZodType>(key: K, item: T, opts: { count?: boolean } = {}) {
  return z.object({ [key]: z.array(item), hasMore: z.boolean(), ...(opts.count ? { count: z.number().int() } : {}) } as { [P in K]: z.ZodArray<T> } & { hasMore: z.ZodBoolean });
}

/** The answer of a deletion and of other actions that only confirm. */
export const messageAnswerSchema = z.object({ message: z.string() });

/** A time as the server sends it: ISO-8601 in UTC (SQLite stores that text; PostgreSQL's timestamptz is read back as it). */
export const timestampSchema = z.iso.datetime({ offset: true });

/** Another row named by id and name (the holder of a ticket, the author of a note, the sender of a message). */
export const namedRefSchema = z.object({ id: z.number().int().positive(), name: z.string() });
export type NamedRef = z.infer<typeof namedRefSchema>;
