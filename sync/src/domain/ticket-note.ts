import { z } from 'zod';
import { namedRefSchema, timestampSchema } from './common.ts';
import { refIdSchema } from './tag.ts';

// Ticket notes (spec/02 §3, §5): at least 2 characters, on a ticket and its contact. `ticketNoteSchema`
// is the note every client reads (REST answers and ticketNote/<id> of the client view).

export const ticketNoteCreateSchema = z.object({
  note: z.string().trim().min(2, 'Too Short!').max(5000, 'Too Long!'),
  ticketId: refIdSchema,
  contactId: refIdSchema,
});
export type TicketNoteCreateInput = z.infer<typeof ticketNoteCreateSchema>;

export const ticketNoteListQuerySchema = z.object({
  ticketId: refIdSchema,
  contactId: refIdSchema,
});
export type TicketNoteListQuery = z.infer<typeof ticketNoteListQuerySchema>;

/** One note as the server sends it: GET /ticket-notes/list, POST /ticket-notes, ticketNote/<id> in the client view. */
export const ticketNoteSchema = z.object({
  id: z.number().int().positive(),
  note: z.string(),
  ticketId: z.number().int().positive(),
  contactId: z.number().int().positive(),
  userId: z.number().int().positive().nullable().describe('The author; null once their account is deleted.'),
  user: namedRefSchema.nullable(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type TicketNote = z.infer<typeof ticketNoteSchema>;

export const ticketNoteKey = (id: number) => `ticketNote/${id}`;
