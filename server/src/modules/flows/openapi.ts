// The OpenAPI documents of the flows routes: the schemas their handlers parse (http/openapi/README.md).
import { flowCreateSchema, flowDuplicateSchema, flowSaveSchema, messageAnswerSchema, phraseCampaignCreateSchema, phraseCampaignUpdateSchema } from '@zapdesk/sync';
import { flowUpdateSchema, searchSchema } from './routes.ts';
import { z } from 'zod';
import { area, type RouteDoc } from '../../http/openapi/types.ts';
import { FLOW_UPLOAD_ROUTES, type FlowUploadRoute } from './media.ts';

const upload = (route: FlowUploadRoute): RouteDoc => ({
  summary: `Store ${FLOW_UPLOAD_ROUTES[route].many ? 'files' : 'a file'} (${FLOW_UPLOAD_ROUTES[route].kinds.join(', ')}) for a flow's nodes`,
  auth: ['bearer'],
  multipart: { file: 'medias', many: FLOW_UPLOAD_ROUTES[route].many },
  answer: FLOW_UPLOAD_ROUTES[route].many ? z.array(z.string()).describe('The stored names') : z.string().describe('The stored name'),
  guarded: true,
  plan: 'campaigns',
});

export const flowsDocs = area('Flows', '', {
  'GET /flowbuilder': { auth: ['bearer'], query: searchSchema, guarded: true, plan: 'campaigns' },
  'POST /flowbuilder': { auth: ['bearer'], body: flowCreateSchema, status: 201, guarded: true, plan: 'campaigns' },
  'PUT /flowbuilder': { auth: ['bearer'], body: flowUpdateSchema, guarded: true, plan: 'campaigns', errors: ['ERR_NOT_FOUND'] },
  'POST /flowbuilder/duplicate': { auth: ['bearer'], body: flowDuplicateSchema, status: 201, guarded: true, plan: 'campaigns', errors: ['ERR_NOT_FOUND'] },
  'GET /flowbuilder/flow/:id': { auth: ['bearer'], guarded: true, plan: 'campaigns' },
  'POST /flowbuilder/flow': { auth: ['bearer'], body: flowSaveSchema, guarded: true, plan: 'campaigns', errors: ['ERR_NOT_FOUND'] },
  'GET /flowbuilder/media/:name': { auth: ['bearer'], guarded: true, plan: 'campaigns' },
  'DELETE /flowbuilder/:id': { auth: ['bearer'], answer: messageAnswerSchema, guarded: true, plan: 'campaigns' },
  'GET /flowcampaign': { auth: ['bearer'], guarded: true, plan: 'campaigns' },
  'GET /flowcampaign/:id': { auth: ['bearer'], guarded: true, plan: 'campaigns' },
  'POST /flowcampaign': { auth: ['bearer'], body: phraseCampaignCreateSchema, status: 201, guarded: true, plan: 'campaigns' },
  'PUT /flowcampaign': { auth: ['bearer'], body: phraseCampaignUpdateSchema, guarded: true, plan: 'campaigns', errors: ['ERR_NOT_FOUND'] },
  'DELETE /flowcampaign/:id': { auth: ['bearer'], answer: messageAnswerSchema, guarded: true, plan: 'campaigns' },
  'POST /flowbuilder/img': upload('img'),
  'POST /flowbuilder/audio': upload('audio'),
  'POST /flowbuilder/video': upload('video'),
  'POST /flowbuilder/content': upload('content'),
  'POST /tickets/:id/flow/stop': { auth: ['bearer'], params: { id: 'ERR_NO_TICKET_FOUND' } },
});
