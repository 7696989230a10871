// The OpenAPI documents of the campaigns routes: the schemas their handlers parse (http/openapi/README.md).
import { campaignCreateSchema, campaignListQuerySchema, campaignSettingsInputSchema, campaignUpdateSchema, listQuerySchema, messageAnswerSchema } from '@zapdesk/sync';
import { area } from '../../http/openapi/types.ts';

export const campaignsDocs = area('Campaigns', '', {
  'GET /campaigns': { auth: ['bearer'], query: campaignListQuerySchema, guarded: true, plan: 'campaigns' },
  'GET /campaigns/:id': { auth: ['bearer'], guarded: true, plan: 'campaigns' },
  'GET /campaigns/:id/report': { auth: ['bearer'], query: listQuerySchema, guarded: true, plan: 'campaigns' },
  'POST /campaigns': { auth: ['bearer'], body: campaignCreateSchema, status: 201, guarded: true, plan: 'campaigns' },
  'PUT /campaigns/:id': { auth: ['bearer'], body: campaignUpdateSchema, guarded: true, plan: 'campaigns' },
  'DELETE /campaigns/:id': { auth: ['bearer'], answer: messageAnswerSchema, guarded: true, plan: 'campaigns', errors: ['ERR_VALIDATION'] },
  'POST /campaigns/:id/cancel': { auth: ['bearer'], guarded: true, plan: 'campaigns', errors: ['ERR_VALIDATION'] },
  'POST /campaigns/:id/restart': { auth: ['bearer'], guarded: true, plan: 'campaigns', errors: ['ERR_VALIDATION'] },
  'GET /campaigns/:id/media': { auth: ['bearer'], guarded: true, plan: 'campaigns' },
  'POST /campaigns/:id/media-upload': { auth: ['bearer'], multipart: { file: 'file' }, guarded: true, plan: 'campaigns' },
  'DELETE /campaigns/:id/media-upload': { auth: ['bearer'], guarded: true, plan: 'campaigns' },
  'GET /campaign-settings': { auth: ['bearer'], guarded: true, plan: 'campaigns' },
  'POST /campaign-settings': { auth: ['bearer'], body: campaignSettingsInputSchema, guarded: true, plan: 'campaigns' },
});
