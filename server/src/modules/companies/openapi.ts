// The OpenAPI documents of the companies routes: the schemas their handlers parse (http/openapi/README.md).
import { companyCreateSchema, companySchedulesSchema, companySchema, companyUpdateSchema, listQuerySchema, messageAnswerSchema, pageSchema, signupSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

export const companiesDocs = area('Companies', "Tenants of the platform. The super-admin manages them; each company reads its own.", {
  'POST /companies/cadastro': { summary: 'Public sign-up: a company with a trial and its first admin', answer: companySchema, auth: [], body: signupSchema, status: 201, errors: ['ERR_USER_CREATION_DISABLED', 'ERR_EMAIL_IN_USE', 'ERR_NO_PLAN_FOUND'] },
  'GET /companies/list': { summary: 'Every company (super-admin)', answer: z.array(companySchema), auth: ['bearer'], guarded: true },
  'GET /companies': { summary: 'A page of companies (super-admin)', answer: pageSchema('companies', companySchema, { count: true }), auth: ['bearer'], query: listQuerySchema, guarded: true },
  'POST /companies': { summary: 'Create a company with its admin (super-admin)', answer: companySchema, auth: ['bearer'], body: companyCreateSchema, status: 201, guarded: true, errors: ['ERR_EMAIL_IN_USE', 'ERR_NO_PLAN_FOUND'] },
  'GET /companies/:id': { summary: 'One company (its own, or any for the super-admin)', answer: companySchema, auth: ['bearer'], errors: ['ERR_NO_COMPANY_FOUND'] },
  'PUT /companies/:id': { summary: 'Change a company (super-admin)', answer: companySchema, auth: ['bearer'], body: companyUpdateSchema, guarded: true, errors: ['ERR_NO_COMPANY_FOUND', 'ERR_NO_PLAN_FOUND'] },
  'DELETE /companies/:id': { summary: 'Delete a company and everything it has (super-admin)', auth: ['bearer'], answer: messageAnswerSchema, guarded: true, errors: ['ERR_NO_COMPANY_FOUND'] },
  'PUT /companies/:id/schedules': { summary: "Set the company's business hours", answer: companySchema, auth: ['bearer'], body: companySchedulesSchema, errors: ['ERR_NO_COMPANY_FOUND', 'ERR_NO_PERMISSION'] },
  'POST /companies/:id/renew': { summary: "Move a company's due date one recurrence on (super-admin)", answer: companySchema, auth: ['bearer'], guarded: true, errors: ['ERR_NO_COMPANY_FOUND'] },
});
