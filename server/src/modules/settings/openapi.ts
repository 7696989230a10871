// The OpenAPI documents of the settings routes: the schemas their handlers parse (http/openapi/README.md).
import { companyScopeQuerySchema, settingAnyValueSchema, settingKeySchema, settingSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

export const settingsDocs = area('Settings', "The company's switches (user rating, call rejection, signature…): each key has its allowed values.", {
  'GET /settings': { summary: "The company's settings (a super-admin may name another company)", auth: ['bearer'], query: companyScopeQuerySchema, answer: z.array(settingSchema), errors: ['ERR_NO_COMPANY_FOUND'] },
  'PUT /settings/:key': {
    summary: 'Change one setting',
    auth: ['bearer'],
    params: { key: settingKeySchema },
    query: companyScopeQuerySchema,
    body: settingAnyValueSchema,
    guarded: true,
    answer: settingSchema,
    errors: ['ERR_NO_SETTING_FOUND', 'ERR_NO_COMPANY_FOUND'],
  },
});
