// The OpenAPI documents of the plans routes: the schemas their handlers parse (http/openapi/README.md).
import { messageAnswerSchema, planCreateSchema, planUpdateSchema } from '@zapdesk/sync';
import { area } from '../../http/openapi/types.ts';

export const plansDocs = area('Plans', '', {
  'GET /plans/list': { auth: [] },
  'GET /plans/all': { auth: ['bearer'] },
  'POST /plans': { auth: ['bearer'], body: planCreateSchema, status: 201, guarded: true, errors: ['ERR_PLAN_DUPLICATED'] },
  'GET /plans/:id': { auth: ['bearer'], params: { id: 'ERR_NO_PLAN_FOUND' } },
  'PUT /plans/:id': { auth: ['bearer'], params: { id: 'ERR_NO_PLAN_FOUND' }, body: planUpdateSchema, guarded: true, errors: ['ERR_PLAN_DUPLICATED'] },
  'DELETE /plans/:id': { auth: ['bearer'], params: { id: 'ERR_NO_PLAN_FOUND' }, answer: messageAnswerSchema, guarded: true, errors: ['ERR_PLAN_IN_USE'] },
  'GET /companies/listPlan/:companyId': { auth: ['bearer'], params: { companyId: 'ERR_NO_COMPANY_FOUND' } },
});
