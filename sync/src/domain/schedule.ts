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

const contactIdSchema = z.coerce.number({ error: 'Obrigatório' }).int().positive('Obrigatório');

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

// ── Template variables ─────────────────────────────────────────────────────────────────────

/**
 * The variables a body may name, written `{{name}}` as in the WhatsApp help-desk products the
 * spec descends from: firstName, name, ms (greeting by hour), protocol, date, hour.
 */
export type TemplateVars = {
  firstName: string;
  name: string;
  ms: string;
  protocol: string;
  date: string;
  hour: string;
};

export const TEMPLATE_VARIABLES = ['firstName', 'name', 'ms', 'protocol', 'date', 'hour'] as const satisfies readonly (keyof TemplateVars)[];

/**
 * Replaces `{{firstName}}`, `{{ name }}` … with their values. Unknown names are left as written
 * (a typo shows in the preview instead of silently vanishing); values are inserted verbatim (no
 * HTML escaping: this is a chat message, not a page).
 */
export function renderTemplate(body: string, vars: Partial<TemplateVars>): string {
  return body.replace(/\{\{\s*([A-Za-z_]\w*)\s*\}\}/g, (whole, key: string) => {
    const value = Object.prototype.hasOwnProperty.call(vars, key) ? vars[key as keyof TemplateVars] : undefined;
    return value ?? whole;
  });
}

export type GreetingLanguage = 'pt' | 'en' | 'es';

const GREETINGS: Record<GreetingLanguage, [morning: string, afternoon: string, evening: string]> = {
  pt: ['Bom dia', 'Boa tarde', 'Boa noite'],
  en: ['Good morning', 'Good afternoon', 'Good evening'],
  es: ['Buenos días', 'Buenas tardes', 'Buenas noches'],
};

/** Morning 05:00-11:59, afternoon 12:00-17:59, evening (and night) 18:00-04:59, in local time. */
export function greetingFor(hour: number, lang: GreetingLanguage = 'pt'): string {
  const [morning, afternoon, evening] = GREETINGS[lang] ?? GREETINGS.pt;
  if (hour >= 5 && hour < 12) return morning;
  if (hour >= 12 && hour < 18) return afternoon;
  return evening;
}

export type ZonedParts = { year: string; month: string; day: string; hour: string; minute: string; second: string };

/** The wall-clock fields of an instant in a time zone (IANA name), zero-padded. */
export function zonedParts(instant: Date, timeZone: string): ZonedParts {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00';
  return { year: get('year').padStart(4, '0'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** True when the runtime knows the IANA zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The variables for one send. `protocol` is yyyyMMddHHmmss of the moment followed by the ticket
 * id (when there is one); `date` is dd/MM/yyyy and `hour` HH:mm:ss, all in `timeZone`.
 */
export function buildTemplateVars(input: {
  contactName: string;
  ticketId?: number | null;
  now: Date;
  timeZone: string;
  lang?: GreetingLanguage;
}): TemplateVars {
  const p = zonedParts(input.now, input.timeZone);
  const name = input.contactName.trim();
  return {
    firstName: name.split(/\s+/)[0] ?? '',
    name,
    ms: greetingFor(Number(p.hour), input.lang),
    protocol: `${p.year}${p.month}${p.day}${p.hour}${p.minute}${p.second}${input.ticketId ?? ''}`,
    date: `${p.day}/${p.month}/${p.year}`,
    hour: `${p.hour}:${p.minute}:${p.second}`,
  };
}
