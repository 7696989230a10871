// The OpenAPI documents of the flows routes: the schemas their handlers parse (http/openapi/README.md).
import { flowCreateSchema, flowDuplicateSchema, flowSaveSchema, flowSchema, flowWithGraphSchema, messageAnswerSchema, phraseCampaignCreateSchema, phraseCampaignSchema, phraseCampaignUpdateSchema, ticketFlowSchema, ticketSchema } from '@zapdesk/sync';
import { flowUpdateSchema, searchSchema } from './routes.ts';
import { z } from 'zod';
import { area, FILE_ANSWER, type RouteDoc } from '../../http/openapi/types.ts';
import { FLOW_UPLOAD_ROUTES, type FlowUploadRoute } from './media.ts';

const upload = (route: FlowUploadRoute): RouteDoc => ({
  summary: `Store ${FLOW_UPLOAD_ROUTES[route].many ? 'files' : 'a file'} (${FLOW_UPLOAD_ROUTES[route].kinds.join(', ')}) for a flow's nodes`,
  auth: ['bearer'],
  multipart: { file: 'medias', many: FLOW_UPLOAD_ROUTES[route].many },
  answer: FLOW_UPLOAD_ROUTES[route].many ? z.array(z.string()).describe('The stored names') : z.string().describe('The stored name'),
  guarded: true,
  plan: 'campaigns',
});

export const flowsDocs = area('Flows', "The flow builder: conversation flows drawn as graphs, and phrase campaigns that start a flow when a customer writes a phrase (needs the plan's campaigns).", {
  'GET /flowbuilder': { summary: "The company's flows", answer: z.object({ flows: z.array(flowSchema) }), auth: ['bearer'], query: searchSchema, guarded: true, plan: 'campaigns' },
  'POST /flowbuilder': { summary: 'Create an empty flow', answer: flowSchema, auth: ['bearer'], body: flowCreateSchema, status: 201, guarded: true, plan: 'campaigns' },
  'PUT /flowbuilder': { summary: 'Rename a flow, or switch it on or off', answer: flowSchema, auth: ['bearer'], body: flowUpdateSchema, guarded: true, plan: 'campaigns', errors: ['ERR_NOT_FOUND'] },
  'POST /flowbuilder/duplicate': { summary: 'Copy a flow with its graph', answer: flowSchema, auth: ['bearer'], body: flowDuplicateSchema, status: 201, guarded: true, plan: 'campaigns', errors: ['ERR_NOT_FOUND'] },
  'GET /flowbuilder/flow/:id': { summary: 'A flow with its graph', answer: z.object({ flow: flowWithGraphSchema }), auth: ['bearer'], guarded: true, plan: 'campaigns' },
  'POST /flowbuilder/flow': { summary: "Save a flow's graph as its next version", answer: z.object({ flow: flowWithGraphSchema, warnings: z.array(z.object({ code: z.string(), nodeId: z.string(), handle: z.string().optional(), message: z.string() })) }), auth: ['bearer'], body: flowSaveSchema, guarded: true, plan: 'campaigns', errors: ['ERR_NOT_FOUND'] },
  'GET /flowbuilder/media/:name': { summary: 'A file stored for a flow', params: { name: z.string() }, answer: FILE_ANSWER, auth: ['bearer'], guarded: true, plan: 'campaigns', errors: ['ERR_NOT_FOUND'] },
  'DELETE /flowbuilder/:id': { summary: 'Delete a flow', auth: ['bearer'], answer: messageAnswerSchema, guarded: true, plan: 'campaigns' },
  'GET /flowcampaign': { summary: "The company's phrase campaigns", answer: z.object({ list: z.array(phraseCampaignSchema) }), auth: ['bearer'], guarded: true, plan: 'campaigns' },
  'GET /flowcampaign/:id': { summary: 'One phrase campaign', answer: phraseCampaignSchema, auth: ['bearer'], guarded: true, plan: 'campaigns' },
  'POST /flowcampaign': { summary: 'Create a phrase campaign', answer: phraseCampaignSchema, auth: ['bearer'], body: phraseCampaignCreateSchema, status: 201, guarded: true, plan: 'campaigns' },
  'PUT /flowcampaign': { summary: 'Change a phrase campaign', answer: phraseCampaignSchema, auth: ['bearer'], body: phraseCampaignUpdateSchema, guarded: true, plan: 'campaigns', errors: ['ERR_NOT_FOUND'] },
  'DELETE /flowcampaign/:id': { summary: 'Delete a phrase campaign', auth: ['bearer'], answer: messageAnswerSchema, guarded: true, plan: 'campaigns' },
  'POST /flowbuilder/img': upload('img'),
  'POST /flowbuilder/audio': upload('audio'),
  'POST /flowbuilder/video': upload('video'),
  'POST /flowbuilder/content': upload('content'),
  'GET /tickets/:id/flow': { summary: "The ticket's flow run (the latest, running or ended): its flow, node and the answers collected", answer: ticketFlowSchema, auth: ['bearer'], params: { id: 'ERR_NO_TICKET_FOUND' }, errors: ['ERR_NO_PERMISSION'] },
  'POST /tickets/:id/flow/stop': { summary: "Stop the flow running in a ticket", answer: z.object({ stopped: z.boolean(), ticket: ticketSchema }), auth: ['bearer'], params: { id: 'ERR_NO_TICKET_FOUND' }, errors: ['ERR_NO_PERMISSION'] },
});
