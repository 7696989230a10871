// The OpenAPI documents of the dashboard routes: the schemas their handlers parse (http/openapi/README.md).
import { dashboardChartQuerySchema, dashboardQuerySchema } from '@zapdesk/sync';
import { area } from '../../http/openapi/types.ts';

export const dashboardDocs = area('Dashboard', '', {
  'GET /dashboard': { auth: ['bearer'], query: dashboardQuerySchema, guarded: true },
  'GET /dashboard/ticketsUsers': { auth: ['bearer'], query: dashboardChartQuerySchema, guarded: true },
  'GET /dashboard/ticketsDay': { auth: ['bearer'], query: dashboardChartQuerySchema, guarded: true },
});
