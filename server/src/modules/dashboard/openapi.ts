// The OpenAPI documents of the dashboard routes: the schemas their handlers parse (http/openapi/README.md).
import { dashboardChartQuerySchema, dashboardQuerySchema, type DashboardData, type TicketsDayData, type TicketsUsersData } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

const minutes = z.number().describe('Minutes, 2 decimals; 0 when nothing was measured');
const dashboardSchema: z.ZodType<DashboardData> = z.object({
  counters: z.object({
    supportHappening: z.number().int(),
    supportPending: z.number().int(),
    supportFinished: z.number().int(),
    avgSupportTime: minutes,
    avgWaitTime: minutes,
    newContacts: z.number().int(),
    leads: z.number().int(),
  }),
  attendants: z.array(z.object({ id: z.number().int(), name: z.string(), rating: z.number(), avgSupportTime: minutes, online: z.boolean(), tickets: z.number().int() })),
  period: z.object({ from: z.string(), to: z.string(), timeZone: z.string() }),
});
const ticketsUsersSchema: z.ZodType<TicketsUsersData> = z.object({ data: z.array(z.object({ nome: z.string(), quantidade: z.number().int() })), count: z.number().int() });
const ticketsDaySchema: z.ZodType<TicketsDayData> = z.object({
  data: z.array(z.union([z.object({ data: z.string(), total: z.number().int() }), z.object({ horario: z.string(), total: z.number().int() })])),
  count: z.number().int(),
});

export const dashboardDocs = area('Dashboard', "The admins' dashboard: counters, attendants and charts over a period, in the company's time zone.", {
  'GET /dashboard': { summary: 'Counters and attendants over a period', answer: dashboardSchema, auth: ['bearer'], query: dashboardQuerySchema, guarded: true },
  'GET /dashboard/ticketsUsers': { summary: 'Tickets per attendant over a period (chart)', answer: ticketsUsersSchema, auth: ['bearer'], query: dashboardChartQuerySchema, guarded: true },
  'GET /dashboard/ticketsDay': { summary: 'Tickets per day, or per hour for one day (chart)', answer: ticketsDaySchema, auth: ['bearer'], query: dashboardChartQuerySchema, guarded: true },
});
