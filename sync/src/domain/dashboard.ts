import { z } from 'zod';
import { idSchema } from './common.ts';
import { isTimeZone } from './template.ts';

// The dashboard (spec/02 §2 screen 11, §3, §9): counters, attendants and two charts, for admins.

const dateOnly = z.iso.date({ error: 'Use a date as yyyy-MM-dd' });

/** An IANA zone for the day boundaries; the server's own zone when absent. */
const timeZoneSchema = z
  .string()
  .trim()
  .min(1)
  .refine(isTimeZone, { error: 'Unknown time zone' })
  .optional();

/** Presets of the period filter are 0, 3, 7, 15, 30, 60, 90 days; any 0..3650 is accepted. */
export const dashboardQuerySchema = z
  .object({
    days: z.coerce.number().int().min(0).max(3650).optional(),
    date_from: dateOnly.optional(),
    date_to: dateOnly.optional(),
    timezone: timeZoneSchema,
  })
  .refine((q) => !q.date_from || !q.date_to || q.date_from <= q.date_to, { error: 'date_from must not be after date_to', path: ['date_to'] });
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

export const dashboardChartQuerySchema = z
  .object({
    initialDate: dateOnly,
    finalDate: dateOnly,
    /** Sent by the web; the caller's company is always the one answered. */
    companyId: idSchema.optional(),
    timezone: timeZoneSchema,
  })
  .refine((q) => q.initialDate <= q.finalDate, { error: 'initialDate must not be after finalDate', path: ['finalDate'] });
export type DashboardChartQuery = z.infer<typeof dashboardChartQuerySchema>;

/** Times in minutes, rounded to 2 decimals; 0 when nothing was measured. */
export type DashboardCounters = {
  /** Open tickets now. */
  supportHappening: number;
  /** Pending tickets now. */
  supportPending: number;
  /** Service cycles (ticket trackings) finished in the period. */
  supportFinished: number;
  /** Mean of finishedAt − startedAt over the cycles finished in the period. */
  avgSupportTime: number;
  /** Mean of startedAt − queuedAt (the cycle's start when it had no queue) over the same cycles. */
  avgWaitTime: number;
  /** Contacts created in the period. */
  newContacts: number;
  /** The same number, under the name the original dashboard used. */
  leads: number;
};

export type DashboardAttendant = {
  id: number;
  name: string;
  /** Mean rate of the user's ratings in the period, 0 to 3 (0: none). */
  rating: number;
  avgSupportTime: number;
  online: boolean;
  /** Cycles the user finished in the period. */
  tickets: number;
};

export type DashboardData = {
  counters: DashboardCounters;
  attendants: DashboardAttendant[];
  /** The period measured, as UTC instants (end exclusive), and the zone its days were read in. */
  period: { from: string; to: string; timeZone: string };
};

export type TicketsUsersData = { data: { nome: string; quantidade: number }[]; count: number };

/** Per day (`data`, dd/MM/yyyy) or, for a one-day range, per hour (`horario`, "00".."23"); empty buckets included. */
export type TicketsDayRow = { data: string; total: number } | { horario: string; total: number };
export type TicketsDayData = { data: TicketsDayRow[]; count: number };
