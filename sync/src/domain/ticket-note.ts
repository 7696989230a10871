import { z } from 'zod';
import { refIdSchema } from './tag.ts';

// Ticket notes (spec/02 §3, §5): at least 2 characters, on a ticket and its contact.

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

export type TicketNoteDto = {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  userId: number | null;
  user: { id: number; name: string } | null;
  createdAt: string;
  updatedAt: string;
};

export const ticketNoteKey = (id: number) => `ticketNote/${id}`;
