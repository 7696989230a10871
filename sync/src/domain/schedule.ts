import { z } from 'zod';
import { idSchema, listQuerySchema, timestampSchema } from './common.ts';

// Scheduled messages (spec/02 §3, §4, §5, §7) and the template variables their bodies may use
// (spec/01 §9, spec/02 §9). Rendering is a pure function so the web can preview what the job sends.
// `scheduledMessageSchema` is the one wire shape of a schedule: GET /schedules/{id} answers it and
// the sync view puts it at `schedule/<id>` (`Schedule` already names a day of business hours).

export const SCHEDULE_STATUSES = ['PENDENTE', 'ENVIADA', 'ERRO'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** A schedule may be sent at most this long in the past (a form filled over a minute boundary). */
export const SCHEDULE_PAST_TOLERANCE_MS = 60_000;
/** Images attached to a schedule: png, jpg, jpeg (spec/02 §5), at most 2 MB. */
export const SCHEDULE_MEDIA_MAX_BYTES = 2 * 1024 * 1024;

const bodySchema = z.string({ error: 'Obrigatório' }).trim().min(5, 'Mensagem muito curta').max(4096, 'Too Long!');

/**
 * An instant with its zone (`Z` or `±hh:mm`), stored as UTC ISO-8601. A bare local time is
 * refused: the server cannot know which zone the form meant.
 */
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

const sendAtSchema = z
  .string({ error: 'Obrigatório' })
  .trim()
  .min(1, 'Obrigatório')
  .refine((v) => ISO_WITH_ZONE.test(v) && Number.isFinite(Date.parse(v)), {
    error: 'Invalid date-time: use ISO-8601 with a time zone, e.g. 2026-12-01T14:30:00-03:00',
  })
  .transform((v) => new Date(v).toISOString());

const contactIdSchema = z.coerce.number({ error: 'Obrigatório' }).int().positive('Obrigatório').max(2_147_483_647);

export const scheduleCreateSchema = z.object({
  body: bodySchema,
  contactId: contactIdSchema,
  sendAt: sendAtSchema,
  ticketId: idSchema.nullish(),
});
export type ScheduleCreateInput = z.infer<typeof scheduleCreateSchema>;

export const scheduleUpdateSchema = z.object({
  body: bodySchema.optional(),
  contactId: contactIdSchema.optional(),
  sendAt: sendAtSchema.optional(),
  ticketId: idSchema.nullish(),
});
export type ScheduleUpdateInput = z.infer<typeof scheduleUpdateSchema>;

export const scheduleListQuerySchema = listQuerySchema.extend({
  contactId: idSchema.optional(),
  companyId: idSchema.optional(),
});
export type ScheduleListQuery = z.infer<typeof scheduleListQuerySchema>;

/** A schedule as the REST answers carry it and as the client view holds it (`schedule/<id>`). */
export const scheduledMessageSchema = z.object({
  id: z.number().int(),
  body: z.string().describe('The text to send; template variables such as {{firstName}} are filled in when it is sent'),
  status: z.enum(SCHEDULE_STATUSES).describe('PENDENTE until sent, then ENVIADA; ERRO when the send failed (editing it retries)'),
  sendAt: z.string().describe('When to send, ISO-8601, UTC'),
  sentAt: z.string().nullable().describe('When it was sent, ISO-8601, UTC'),
  error: z.string().nullable().describe('Why the send failed (a catalogue code or message)'),
  contactId: z.number().int(),
  contact: z.object({ id: z.number().int(), name: z.string(), number: z.string() }).nullable().describe('The recipient'),
  userId: z.number().int().nullable().describe('The author'),
  user: z.object({ id: z.number().int(), name: z.string() }).nullable().describe('The author'),
  ticketId: z.number().int().nullable().describe('The ticket it was scheduled from, if any'),
  mediaPath: z.string().nullable().describe('The attached image, relative to the media folder; read it at GET /schedules/{id}/media'),
  mediaName: z.string().nullable().describe("The image's file name as uploaded"),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  version: z.number().int().describe('Row version, bumped on every change'),
});
export type ScheduledMessage = z.infer<typeof scheduledMessageSchema>;

export type SchedulePage = { schedules: ScheduledMessage[]; count: number; hasMore: boolean };

export const scheduleKey = (id: number) => `schedule/${id}`;
