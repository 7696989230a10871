// The OpenAPI documents of the campaigns routes: the schemas their handlers parse (http/openapi/README.md).
import { campaignCreateSchema, campaignListQuerySchema, campaignSchema, campaignSettingsInputSchema, campaignShippingSchema, campaignTotalsSchema, campaignUpdateSchema, listQuerySchema, messageAnswerSchema, pageSchema } from '@zapdesk/sync';
import { z } from 'zod';
import type { CampaignSettingRow } from './settings.ts';
import { area, FILE_ANSWER } from '../../http/openapi/types.ts';

const campaignSettingRowSchema: z.ZodType<CampaignSettingRow> = z.object({ id: z.number().int(), key: z.string(), value: z.string() });

export const campaignsDocs = area('Campaigns', "Bulk sends to a contact list through a connection, paced by the campaign settings (needs the plan's campaigns).", {
  'GET /campaigns': { summary: 'A page of campaigns', answer: pageSchema('records', campaignSchema, { count: true }), auth: ['bearer'], query: campaignListQuerySchema, guarded: true, plan: 'campaigns' },
  'GET /campaigns/:id': { summary: 'One campaign', answer: campaignSchema, auth: ['bearer'], guarded: true, plan: 'campaigns' },
  'GET /campaigns/:id/report': { summary: 'A campaign with its totals and a page of its shipping', answer: z.object({ campaign: campaignSchema, totals: campaignTotalsSchema, shipping: z.array(campaignShippingSchema), hasMore: z.boolean() }), auth: ['bearer'], query: listQuerySchema, guarded: true, plan: 'campaigns' },
  'POST /campaigns': { summary: 'Create a campaign', answer: campaignSchema, auth: ['bearer'], body: campaignCreateSchema, status: 201, guarded: true, plan: 'campaigns' },
  'PUT /campaigns/:id': { summary: 'Change a campaign', answer: campaignSchema, auth: ['bearer'], body: campaignUpdateSchema, guarded: true, plan: 'campaigns' },
  'DELETE /campaigns/:id': { summary: 'Delete a campaign', auth: ['bearer'], answer: messageAnswerSchema, guarded: true, plan: 'campaigns', errors: ['ERR_VALIDATION'] },
  'POST /campaigns/:id/cancel': { summary: 'Stop a campaign (what was not sent stays unsent)', answer: campaignSchema, auth: ['bearer'], guarded: true, plan: 'campaigns', errors: ['ERR_VALIDATION'] },
  'POST /campaigns/:id/restart': { summary: 'Resume a cancelled campaign', answer: campaignSchema, auth: ['bearer'], guarded: true, plan: 'campaigns', errors: ['ERR_VALIDATION'] },
  'GET /campaigns/:id/media': { summary: 'The attached file', answer: FILE_ANSWER, auth: ['bearer'], guarded: true, plan: 'campaigns' },
  'POST /campaigns/:id/media-upload': { summary: 'Attach a file', answer: campaignSchema, auth: ['bearer'], multipart: { file: 'file' }, guarded: true, plan: 'campaigns' },
  'DELETE /campaigns/:id/media-upload': { summary: 'Remove the attached file', answer: campaignSchema, auth: ['bearer'], guarded: true, plan: 'campaigns' },
  'GET /campaign-settings': { summary: 'The pacing settings of campaigns', answer: z.array(campaignSettingRowSchema), auth: ['bearer'], guarded: true, plan: 'campaigns' },
  'POST /campaign-settings': { summary: 'Save the pacing settings', answer: z.array(campaignSettingRowSchema), auth: ['bearer'], body: campaignSettingsInputSchema, guarded: true, plan: 'campaigns' },
});
