// Every route's document, area by area. A route the app registers without a document here fails
// openapi.test.ts; a module adds its routes' documents in its own openapi.ts and joins the list.
import { testSessionSchema } from '../../assistants/test-session.ts';
import { announcementsDocs } from '../../modules/announcements/openapi.ts';
import { authDocs } from '../../modules/auth/openapi.ts';
import { billingDocs } from '../../modules/billing/openapi.ts';
import { campaignsDocs } from '../../modules/campaigns/openapi.ts';
import { chatsDocs } from '../../modules/chats/openapi.ts';
import { companiesDocs } from '../../modules/companies/openapi.ts';
import { contactListsDocs } from '../../modules/contact-lists/openapi.ts';
import { contactsDocs } from '../../modules/contacts/openapi.ts';
import { dashboardDocs } from '../../modules/dashboard/openapi.ts';
import { externalApiDocs } from '../../modules/external-api/openapi.ts';
import { filesDocs } from '../../modules/files/openapi.ts';
import { flowsDocs } from '../../modules/flows/openapi.ts';
import { helpsDocs } from '../../modules/helps/openapi.ts';
import { mediaDocs } from '../../modules/media/openapi.ts';
import { messagesDocs } from '../../modules/messages/openapi.ts';
import { plansDocs } from '../../modules/plans/openapi.ts';
import { promptsDocs } from '../../modules/prompts/openapi.ts';
import { webhooksDocs } from '../../modules/webhooks/openapi.ts';
import { queueIntegrationsDocs } from '../../modules/queue-integrations/openapi.ts';
import { queueOptionsDocs } from '../../modules/queue-options/openapi.ts';
import { queuesDocs } from '../../modules/queues/openapi.ts';
import { quickMessagesDocs } from '../../modules/quick-messages/openapi.ts';
import { schedulesDocs } from '../../modules/schedules/openapi.ts';
import { settingsDocs } from '../../modules/settings/openapi.ts';
import { simulatorDocs } from '../../modules/simulator/openapi.ts';
import { tagsDocs } from '../../modules/tags/openapi.ts';
import { ticketNotesDocs } from '../../modules/ticket-notes/openapi.ts';
import { ticketsDocs } from '../../modules/tickets/openapi.ts';
import { usersDocs } from '../../modules/users/openapi.ts';
import { whatsappSessionsDocs } from '../../modules/whatsapp-sessions/openapi.ts';
import { whatsappsDocs } from '../../modules/whatsapps/openapi.ts';
import { pullRequestSchema } from '../../sync/pull.ts';
import { pushRequestSchema } from '../../sync/push.ts';
import { z } from 'zod';
import { area, type AreaDocs } from './types.ts';

const serviceDocs = area('Service', 'Health and this documentation.', {
  'GET /health': { summary: 'Whether the server answers', auth: [], answer: z.object({ status: z.literal('ok') }) },
  'GET /openapi.json': { summary: 'This document (OpenAPI 3.1)', auth: [], answer: { contentType: 'application/json', description: 'The OpenAPI 3.1 document' } },
  'GET /docs': { summary: 'The reference page of this document', auth: [], answer: { contentType: 'text/html', description: 'An HTML page' } },
  'GET /docs/:asset': { summary: "An asset of the reference page (from the swagger-ui-dist package)", auth: [], params: { asset: z.string() }, answer: { contentType: 'application/octet-stream', description: 'A script, style sheet or icon' }, errors: ['ERR_ROUTE_NOT_FOUND'] },
});

const assistantsDocs = area('Assistants', 'Trying an assistant before a queue uses it.', {
  'POST /queueIntegration/testSession': {
    summary: 'Talk once to a Dialogflow agent with the given credentials',
    auth: ['bearer'],
    body: testSessionSchema,
    guarded: true,
    plan: 'integrations',
    errors: ['ERR_NOT_FOUND'],
    answer: z.object({ ok: z.boolean(), reply: z.string().optional(), handsOver: z.boolean().optional(), error: z.string().optional() }),
  },
});

const syncDocs = area('Sync', "The local-first protocol of the web app (Replicache's pull and push). Clients other than the web app use REST.", {
  'POST /sync/pull': { summary: 'Changes since a cookie', auth: ['bearer'], body: pullRequestSchema, errors: ['ERR_NO_PERMISSION'] },
  'POST /sync/push': { summary: 'Apply mutations in order', auth: ['bearer'], body: pushRequestSchema, errors: ['ERR_NO_PERMISSION', 'ERR_NOT_FOUND'] },
});

export const ROUTE_DOCS: AreaDocs[] = [
  serviceDocs,
  authDocs,
  externalApiDocs,
  ticketsDocs,
  messagesDocs,
  contactsDocs,
  queuesDocs,
  queueOptionsDocs,
  usersDocs,
  tagsDocs,
  whatsappsDocs,
  whatsappSessionsDocs,
  mediaDocs,
  ticketNotesDocs,
  quickMessagesDocs,
  schedulesDocs,
  campaignsDocs,
  contactListsDocs,
  filesDocs,
  flowsDocs,
  promptsDocs,
  webhooksDocs,
  queueIntegrationsDocs,
  assistantsDocs,
  chatsDocs,
  dashboardDocs,
  announcementsDocs,
  helpsDocs,
  settingsDocs,
  companiesDocs,
  plansDocs,
  billingDocs,
  simulatorDocs,
  syncDocs,
];
