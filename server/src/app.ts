import { Hono } from 'hono';
import { corsFor } from './http/cors.ts';
import { AppError } from '@zapdesk/sync';
import type { AppDeps, AppEnv } from './context.ts';
import { declaredBodyLimit } from './http/body-limit.ts';
import { errorHandler, notFoundHandler } from './http/errors.ts';
import { instanceHeader } from './http/instance.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { billingRoutes } from './modules/billing/routes.ts';
import { companiesRoutes } from './modules/companies/routes.ts';
import { contactListsRoutes } from './modules/contact-lists/routes.ts';
import { filesRoutes } from './modules/files/routes.ts';
import { promptsRoutes } from './modules/prompts/routes.ts';
import { queueIntegrationsRoutes } from './modules/queue-integrations/routes.ts';
import { webhooksRoutes } from './modules/webhooks/routes.ts';
import { helpsRoutes } from './modules/helps/routes.ts';
import { plansRoutes } from './modules/plans/routes.ts';
import { settingsRoutes } from './modules/settings/routes.ts';
import { usersRoutes } from './modules/users/routes.ts';
import { contactsRoutes } from './modules/contacts/routes.ts';
import { externalApiRoutes } from './modules/external-api/routes.ts';
import { mediaRoutes } from './modules/media/routes.ts';
import { messagesRoutes } from './modules/messages/routes.ts';
import { ticketsRoutes } from './modules/tickets/routes.ts';
import { queueOptionsRoutes } from './modules/queue-options/routes.ts';
import { queuesRoutes } from './modules/queues/routes.ts';
import { simulatorRoutes } from './modules/simulator/routes.ts';
import { whatsappSessionsRoutes } from './modules/whatsapp-sessions/routes.ts';
import { whatsappsRoutes } from './modules/whatsapps/routes.ts';
import { schedulesRoutes } from './modules/schedules/routes.ts';
import { campaignsRoutes } from './modules/campaigns/routes.ts';
import { assistantsRoutes } from './assistants/test-session.ts';
import { flowsRoutes } from './modules/flows/routes.ts';
import { dashboardRoutes } from './modules/dashboard/routes.ts';
import { announcementsRoutes } from './modules/announcements/routes.ts';
import { chatsRoutes } from './modules/chats/routes.ts';
import { quickMessagesRoutes } from './modules/quick-messages/routes.ts';
import { tagsRoutes } from './modules/tags/routes.ts';
import { ticketNotesRoutes } from './modules/ticket-notes/routes.ts';
import { syncRoutes } from './sync/routes.ts';
import { openApiRoutes } from './http/openapi/routes.ts';

/** The largest multipart body any upload route may receive; routes cap lower. */
export const MAX_MULTIPART_BYTES = 100 * 1024 * 1024;

const isMultipart = (type: string | undefined) => /^multipart\/form-data/i.test(type ?? '');

/** The whole HTTP API, composed from one sub-app per domain module. */
export function createApp(deps: AppDeps) {
  const webOrigins = new Set([`http://localhost:${deps.config.webPort}`, `http://127.0.0.1:${deps.config.webPort}`, ...deps.config.webOrigins]);
  // JSON bodies stay small. Uploads (multipart) get a wider ceiling here, and each upload route
  // sets its own, tighter limit for what it accepts.
  const tooLarge = () => {
    throw new AppError('ERR_PAYLOAD_TOO_LARGE');
  };
  const jsonLimit = declaredBodyLimit(deps.config.maxJsonBytes, tooLarge);
  const multipartLimit = declaredBodyLimit(MAX_MULTIPART_BYTES, tooLarge);
  const app = new Hono<AppEnv>()
    // Which instance answered, for whoever looks through a load balancer (README "Several instances").
    .use(instanceHeader(deps.instanceId))
    .use(corsFor((origin) => webOrigins.has(origin)))
    .use((c, next) => (isMultipart(c.req.header('content-type')) ? multipartLimit(c, next) : jsonLimit(c, next)))
    .get('/health', (c) => c.json({ status: 'ok' }))
    .route('/', openApiRoutes())
    .route('/', authRoutes(deps))
    .route('/', plansRoutes(deps))
    .route('/', companiesRoutes(deps))
    .route('/', helpsRoutes(deps))
    .route('/', usersRoutes(deps))
    .route('/', settingsRoutes(deps))
    .route('/', contactsRoutes(deps))
    .route('/', contactListsRoutes(deps))
    .route('/', filesRoutes(deps))
    .route('/', webhooksRoutes(deps))
    .route('/', promptsRoutes(deps))
    .route('/', queueIntegrationsRoutes(deps))
    .route('/', ticketsRoutes(deps))
    .route('/', messagesRoutes(deps))
    .route('/', mediaRoutes(deps))
    .route('/', externalApiRoutes(deps))
    .route('/', whatsappsRoutes(deps))
    .route('/', whatsappSessionsRoutes(deps))
    .route('/', queuesRoutes(deps))
    .route('/', queueOptionsRoutes(deps))
    // The fake network's controls exist only when SIMULATOR=1.
    .route('/', deps.config.simulator ? simulatorRoutes(deps) : new Hono<AppEnv>())
    .route('/', schedulesRoutes(deps))
    .route('/', campaignsRoutes(deps))
    .route('/', flowsRoutes(deps))
    .route('/', assistantsRoutes(deps))
    .route('/', dashboardRoutes(deps))
    .route('/', tagsRoutes(deps))
    .route('/', ticketNotesRoutes(deps))
    .route('/', quickMessagesRoutes(deps))
    .route('/', announcementsRoutes(deps))
    .route('/', chatsRoutes(deps))
    .route('/', billingRoutes(deps))
    .route('/', syncRoutes(deps));
  app.onError(errorHandler(deps.log));
  app.notFound(notFoundHandler);
  return app;
}

export type AppType = ReturnType<typeof createApp>;
