import { z } from 'zod';
import { idSchema, listQuerySchema, timestampSchema } from './common.ts';

// File lists (spec/03 §3, §5, §7: "Files"): a named message with several options, each a stored
// file a campaign can send. Request bodies and the one wire shape; REST answers it (small lists on
// paginated REST that refresh on poke, DESIGN §4).

/** spec/03 §5: name required, at least 3 characters; message required. */
export const fileListNameSchema = z.string().trim().min(3, 'Too Short!').max(100, 'Too Long!');
export const fileListMessageSchema = z.string().trim().min(1, 'Required').max(4096, 'Too Long!');

export const fileOptionInputSchema = z.object({
  /** An existing option of this list (PUT); without it a new option is made. */
  id: idSchema.optional(),
  name: z.string().trim().min(1, 'Required').max(100, 'Too Long!'),
  /** What the forms send back as they received it; files are attached by POST /files/uploadList/{id}. */
  path: z.unknown().optional(),
  mediaType: z.unknown().optional(),
  file: z.unknown().optional(),
});
export type FileOptionInput = z.infer<typeof fileOptionInputSchema>;

/** At most this many options in one list. */
export const MAX_FILE_OPTIONS = 50;

export const fileListCreateSchema = z.object({
  name: fileListNameSchema,
  message: fileListMessageSchema,
  options: z.array(fileOptionInputSchema).max(MAX_FILE_OPTIONS).optional().default([]),
  /** Sent by the forms; ignored (the caller and the caller's company). */
  userId: z.unknown().optional(),
  companyId: z.unknown().optional(),
});
export type FileListCreateInput = z.infer<typeof fileListCreateSchema>;

/** PUT /files/{id}: fields left out keep their value; a given `options` becomes the list's options (by id: kept and renamed; without: new; missing: removed with their files). */
export const fileListUpdateSchema = z.object({
  name: fileListNameSchema.optional(),
  message: fileListMessageSchema.optional(),
  options: z.array(fileOptionInputSchema).max(MAX_FILE_OPTIONS).optional(),
  userId: z.unknown().optional(),
  companyId: z.unknown().optional(),
});
export type FileListUpdateInput = z.infer<typeof fileListUpdateSchema>;

/** GET /files: without pageNumber and searchParam (the campaign dialog's select) every list of the company. */
export const fileListQuerySchema = listQuerySchema.extend({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional(),
  companyId: z.unknown().optional(),
});
export type FileListQuery = z.infer<typeof fileListQuerySchema>;

export const fileOptionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  path: z.string().describe('The stored file\'s name; empty until a file is uploaded'),
  mediaType: z.string().nullable().describe('image, audio, video or application; null without a file'),
  url: z.string().nullable().describe('GET this (with the bearer token) for the file; null without a file'),
});
export type FileOption = z.infer<typeof fileOptionSchema>;

export const fileListSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  message: z.string(),
  options: z.array(fileOptionSchema),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
/** Named apart from the DOM's FileList. */
export type FileListRecord = z.infer<typeof fileListSchema>;
