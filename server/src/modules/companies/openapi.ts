// The OpenAPI documents of the companies routes: the schemas their handlers parse (http/openapi/README.md).
import { companyCreateSchema, companySchedulesSchema, companyUpdateSchema, listQuerySchema, messageAnswerSchema, signupSchema } from '@zapdesk/sync';
import { area } from '../../http/openapi/types.ts';

export const companiesDocs = area('Companies', '', {
  'POST /companies/cadastro': { auth: [], body: signupSchema, status: 201, errors: ['ERR_USER_CREATION_DISABLED', 'ERR_EMAIL_IN_USE', 'ERR_NO_PLAN_FOUND'] },
  'GET /companies/list': { auth: ['bearer'], guarded: true },
  'GET /companies': { auth: ['bearer'], query: listQuerySchema, guarded: true },
  'POST /companies': { auth: ['bearer'], body: companyCreateSchema, status: 201, guarded: true, errors: ['ERR_EMAIL_IN_USE', 'ERR_NO_PLAN_FOUND'] },
  'GET /companies/:id': { auth: ['bearer'], errors: ['ERR_NO_COMPANY_FOUND'] },
  'PUT /companies/:id': { auth: ['bearer'], body: companyUpdateSchema, guarded: true, errors: ['ERR_NO_COMPANY_FOUND', 'ERR_NO_PLAN_FOUND'] },
  'DELETE /companies/:id': { auth: ['bearer'], answer: messageAnswerSchema, guarded: true, errors: ['ERR_NO_COMPANY_FOUND'] },
  'PUT /companies/:id/schedules': { auth: ['bearer'], body: companySchedulesSchema, errors: ['ERR_NO_COMPANY_FOUND', 'ERR_NO_PERMISSION'] },
  'POST /companies/:id/renew': { auth: ['bearer'], guarded: true, errors: ['ERR_NO_COMPANY_FOUND'] },
});
