import { z } from 'zod';
import { emailSchema, timestampSchema, passwordSchema, personNameSchema, type Page } from './common.ts';
import { formSwitchSchema, planSchema } from './plan.ts';
import { scheduleSchema, schedulesSchema } from './queue.ts';
import { settingSchema } from './setting.ts';

// Companies (spec/01 §3, §4, §5): the bodies of the company routes and sign-up, the recurrences and
// the due-date renewal that the server applies and the web and the CLI preview, and the company as
// every transport sends it (REST answers and company/<id> alike).

export const RECURRENCES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;
export type Recurrence = (typeof RECURRENCES)[number];
export const recurrenceSchema = z.enum(RECURRENCES);

export const RECURRENCE_MONTHS: Record<Recurrence, number> = { MENSAL: 1, BIMESTRAL: 2, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 };

/**
 * The next due date after a renewal: the recurrence's months added to the later of the current due
 * date and now, so an overdue company pays for time it will use. A day that the target month lacks
 * becomes its last day (Jan 31 + 1 month = Feb 28/29). Computed in UTC, the zone dates are stored in.
 */
export function renewDueDate(dueDate: string | null | undefined, recurrence: Recurrence, now: Date = new Date()): string {
  const current = dueDate ? new Date(dueDate) : undefined;
  const base = current && !Number.isNaN(current.getTime()) && current > now ? current : now;
  return addMonthsUtc(base, RECURRENCE_MONTHS[recurrence]).toISOString();
}

// Date#setUTCMonth overflows (Jan 31 + 1 → Mar 3), hence the clamp; no date library is allowed in sync/.
function addMonthsUtc(date: Date, months: number): Date {
  const target = new Date(date.getTime());
  const day = date.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}

const DAY_MS = 86_400_000;

/**
 * Whole days from today to a due date, counted in UTC calendar days (the zone dates are stored in),
 * negative when past; null without a date. The web's banners and row colours and the CLI's
 * "5d left" read the same number.
 */
export function daysToDue(dueDate: string | null | undefined, now: Date = new Date()): number | null {
  if (!dueDate) return null;
  const due = new Date(dueDate);
  if (Number.isNaN(due.getTime())) return null;
  const dayOf = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return Math.round((dayOf(due) - dayOf(now)) / DAY_MS);
}

/** PUT /companies/{id}/schedules: the company's business hours, in the same shape as a queue's. */
export const companySchedulesSchema = z.object({ schedules: schedulesSchema });
export type CompanySchedulesInput = z.infer<typeof companySchedulesSchema>;

/** A Brazilian phone as the mask "(99) 99999-9999" or bare digits (10 or 11), stored as digits. */
export const companyPhoneSchema = z
  .string()
  .trim()
  .regex(/^(\(\d{2}\) ?\d{4,5}-?\d{4}|\d{10,11})$/, 'Use (99) 99999-9999')
  .transform((s) => s.replace(/\D/g, ''));

// Optional text fields: forms send '' or null for "none"; both are stored as null.
const blankToNull = (v: unknown) => (v === '' || v === null ? null : v);
const optionalText = (max: number) => z.preprocess(blankToNull, z.string().trim().max(max).nullable().optional());

/** A date ("2026-05-10", kept until the end of that day) or an ISO date-time, as ISO-8601 UTC. */
export const companyDueDateSchema = z
  .union([z.iso.date().transform((d) => `${d}T23:59:59.999Z`), z.iso.datetime({ offset: true }).transform((d) => new Date(d).toISOString())])
  // Years the databases can both store and that make sense for a subscription.
  .refine((iso) => new Date(iso).getUTCFullYear() >= 2000 && new Date(iso).getUTCFullYear() <= 9999, 'Give a date from the year 2000 on')
  .nullable();

const planIdSchema = z
  .union([z.number(), z.string().trim().min(1).transform(Number)], { error: 'Choose a plan' })
  .pipe(z.number({ error: 'Choose a plan' }).int().positive().max(2_147_483_647, 'Choose a plan'));

const companyFields = {
  name: z.string().trim().min(2, 'Too Short!').max(50, 'Too Long!'),
  email: z.preprocess(blankToNull, emailSchema.nullable().optional()),
  phone: z.preprocess(blankToNull, companyPhoneSchema.nullable().optional()),
  planId: planIdSchema,
  status: formSwitchSchema.optional(),
  dueDate: companyDueDateSchema.optional(),
  recurrence: recurrenceSchema.optional(),
  campaignsEnabled: formSwitchSchema.optional(),
  document: optionalText(30),
  paymentMethod: optionalText(30),
  addressZip: optionalText(20),
  addressStreet: optionalText(200),
  addressNumber: optionalText(20),
  addressDistrict: optionalText(100),
  addressCity: optionalText(100),
  addressState: optionalText(50),
};

/**
 * POST /companies (super-admin). With a `password` it also creates the company's first admin,
 * named `adminName` (default: the company name) and signing in with `adminEmail` (default: `email`).
 */
export const companyCreateSchema = z
  .object({
    ...companyFields,
    password: z.preprocess(blankToNull, passwordSchema.nullable().optional()),
    adminName: z.preprocess(blankToNull, personNameSchema.nullable().optional()),
    adminEmail: z.preprocess(blankToNull, emailSchema.nullable().optional()),
  })
  .refine((d) => !d.password || d.adminEmail || d.email, { message: 'An email is needed for the first admin', path: ['email'] });
export type CompanyCreateInput = z.infer<typeof companyCreateSchema>;

/** PUT /companies/{id} (super-admin): only the fields sent change. */
export const companyUpdateSchema = z.object(companyFields).partial();
export type CompanyUpdateInput = z.infer<typeof companyUpdateSchema>;

/**
 * POST /companies/cadastro, the public sign-up (spec/01 §5). The client also sends dueDate, status and
 * campaignsEnabled; the server decides those (a trial of SIGNUP_TRIAL_DAYS, active, campaigns on), so
 * they are not read. Recurrence is monthly during the trial.
 */
export const signupSchema = z.object({
  name: companyFields.name,
  email: emailSchema,
  phone: companyFields.phone,
  password: passwordSchema,
  planId: planIdSchema,
  recurrence: z.literal('MENSAL', { error: 'Sign-up is monthly (MENSAL)' }).optional(),
});
export type SignupInput = z.infer<typeof signupSchema>;

/** A stored day of business hours, as answered: the request's shape with the label always filled. */
const storedScheduleSchema = scheduleSchema.required({ weekday: true });

/**
 * The company as every endpoint answers it and as company/<id> syncs it (the signed-in user's own
 * company): its plan in full (limits and flags gate features), `campaignsEnabled` read from its
 * settings, and `settings` wherever one company is read (GET /companies/{id}, the sync value), not
 * in the lists.
 */
export const companySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable().describe('Digits only'),
  planId: z.number().int().nullable(),
  plan: planSchema.nullable(),
  status: z.boolean().describe('Active; an inactive company cannot log in'),
  campaignsEnabled: z.boolean().describe('The campaignsEnabled setting: campaign pages show even without the plan flag'),
  dueDate: timestampSchema.nullable().describe('End of the paid period; login is refused after it'),
  recurrence: recurrenceSchema,
  trialExpiration: timestampSchema.nullable().describe('End of the sign-up trial'),
  schedules: z.array(storedScheduleSchema).describe('Business hours, one entry per weekday at most'),
  document: z.string().nullable(),
  paymentMethod: z.string().nullable(),
  addressZip: z.string().nullable(),
  addressStreet: z.string().nullable(),
  addressNumber: z.string().nullable(),
  addressDistrict: z.string().nullable(),
  addressCity: z.string().nullable(),
  addressState: z.string().nullable(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  settings: z.array(settingSchema).optional().describe('Every setting (defaults filled); only where one company is read'),
});
export type Company = z.infer<typeof companySchema>;

/** GET /companies: one page of the search. */
export type CompaniesPage = Page<'companies', Company> & { count: number };
