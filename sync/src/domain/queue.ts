import { z } from 'zod';
import { idSchema, timestampSchema } from './common.ts';

// Queues and queue options (spec/03 §2-§5): request bodies, business-hour schedules, and the shapes
// the API answers. Schedules are shared with connections (their Business hours tab). `queueSchema`
// is the one wire shape of a queue: GET /queue answers it and the sync view puts it at `queue/<id>`.

export const WEEKDAYS = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday' },
  { weekday: 'Sábado', weekdayEn: 'saturday' },
  { weekday: 'Domingo', weekdayEn: 'sunday' },
] as const;

export type WeekdayEn = (typeof WEEKDAYS)[number]['weekdayEn'];
const WEEKDAYS_EN = WEEKDAYS.map((d) => d.weekdayEn) as [WeekdayEn, ...WeekdayEn[]];

/** "HH:mm" from 00:00 to 23:59 (the forms' time pickers). */
export const timeOfDaySchema = z.string().trim().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use HH:mm');

/** One day of business hours; 00:00-00:00 means closed all day. */
export const scheduleSchema = z.object({
  weekday: z.string().trim().max(30).optional(),
  weekdayEn: z.enum(WEEKDAYS_EN),
  startTime: timeOfDaySchema,
  endTime: timeOfDaySchema,
});

/** One day of business hours as stored and answered (queues, connections, the company). */
export const businessDaySchema = z.object({
  weekday: z.string().describe('The weekday in Portuguese, e.g. Segunda-feira'),
  weekdayEn: z.enum(WEEKDAYS_EN),
  startTime: z.string().describe('HH:mm; 00:00-00:00 means closed all day'),
  endTime: z.string().describe('HH:mm'),
});
export type Schedule = z.infer<typeof businessDaySchema>;

/** A schedule list: one entry per weekday at most; the Portuguese label is filled from weekdayEn. */
export const schedulesSchema = z
  .array(scheduleSchema)
  .max(7)
  .refine((list) => new Set(list.map((d) => d.weekdayEn)).size === list.length, 'One entry per weekday')
  .transform((list): Schedule[] =>
    list.map((d) => ({ ...d, weekday: d.weekday || WEEKDAYS.find((w) => w.weekdayEn === d.weekdayEn)!.weekday })),
  );

/** Spec/03 §3: Monday to Friday 08:00-18:00, Saturday 08:00-12:00, Sunday 00:00-00:00 (closed). */
export const DEFAULT_QUEUE_SCHEDULES: Schedule[] = WEEKDAYS.map((d) => {
  if (d.weekdayEn === 'saturday') return { ...d, startTime: '08:00', endTime: '12:00' };
  if (d.weekdayEn === 'sunday') return { ...d, startTime: '00:00', endTime: '00:00' };
  return { ...d, startTime: '08:00', endTime: '18:00' };
});

// Forms send '' for "none"; both '' and null clear an optional text or link.
const optionalText = (max: number) => z.preprocess((v) => (v === '' ? null : v), z.string().max(max).nullable().optional());
const optionalId = z.preprocess((v) => (v === '' ? null : v), idSchema.nullable().optional());

export const queueNameSchema = z.string().trim().min(2, 'Too Short!').max(50, 'Too Long!');
export const queueColorSchema = z.string().trim().min(3, 'Too Short!').max(9, 'Too Long!');

const queueFields = {
  name: queueNameSchema,
  color: queueColorSchema,
  greetingMessage: optionalText(5000),
  complationMessage: optionalText(5000),
  outOfHoursMessage: optionalText(5000),
  ratingMessage: optionalText(5000),
  orderQueue: z.preprocess((v) => (v === '' ? null : v), z.coerce.number().int().min(0).max(1_000_000).nullable().optional()),
  integrationId: optionalId,
  promptId: optionalId,
  schedules: schedulesSchema.optional(),
};

/** POST /queue; `companyId` is honoured for the super-admin only. */
export const queueCreateSchema = z.object({ ...queueFields, companyId: idSchema.optional() });
export type QueueCreateInput = z.infer<typeof queueCreateSchema>;

/** PUT /queue/{id}: only the fields sent change. */
export const queueUpdateSchema = z.object(queueFields).partial().extend({ companyId: idSchema.optional() });
export type QueueUpdateInput = z.infer<typeof queueUpdateSchema>;

/** A queue as GET /queue answers it and as the client view holds it (`queue/<id>`). */
export const queueSchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  color: z.string().describe('Hex colour, e.g. #7C3AED'),
  greetingMessage: z.string().nullable().describe('Sent when a ticket enters the queue; required once the company has two queues (the menu)'),
  complationMessage: z.string().nullable().describe('Sent when a ticket of the queue is resolved'),
  outOfHoursMessage: z.string().nullable().describe('Sent outside the business hours (scheduleType queue)'),
  ratingMessage: z.string().nullable(),
  orderQueue: z.number().int().nullable().describe('Position in the customer menu; null sorts last'),
  integrationId: z.number().int().nullable(),
  promptId: z.number().int().nullable(),
  schedules: z.array(businessDaySchema).describe('Business hours, at most one entry per weekday'),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  version: z.number().int().describe('Row version, bumped on every change'),
});
export type Queue = z.infer<typeof queueSchema>;

/** GET /queue-options: the options of one queue at one level; parentId -1 (or absent) is the top level. */
export const queueOptionListQuerySchema = z.object({
  queueId: idSchema,
  parentId: z.coerce.number().int().min(-1).optional(),
});

export const queueOptionCreateSchema = z.object({
  queueId: idSchema,
  parentId: z.preprocess((v) => (v === '' || v === -1 || v === '-1' ? null : v), idSchema.nullable().optional()),
  title: z.string().trim().min(1, 'Required').max(100, 'Too Long!'),
  message: optionalText(5000),
});
export type QueueOptionCreateInput = z.infer<typeof queueOptionCreateSchema>;

export const queueOptionUpdateSchema = z.object({
  title: z.string().trim().min(1, 'Required').max(100, 'Too Long!').optional(),
  message: optionalText(5000),
});
export type QueueOptionUpdateInput = z.infer<typeof queueOptionUpdateSchema>;

export type QueueOption = {
  id: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: string | null;
  /** 1-based position among its siblings: what the customer types to pick it. */
  option: number;
  createdAt: string;
  updatedAt: string;
  version: number;
};
