// The OpenAPI documents of the plans routes: the schemas their handlers parse (http/openapi/README.md).
import { messageAnswerSchema, planCreateSchema, planSchema, planUpdateSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

export const plansDocs = area('Plans', "Subscription plans: limits (users, connections, queues), price and the feature flags that gate pages and routes.", {
  'GET /plans/list': { summary: 'The public plans (sign-up page)', answer: z.array(planSchema), auth: [] },
  'GET /plans/all': { summary: 'Every plan (all for the super-admin, the own company plan otherwise)', answer: z.array(planSchema), auth: ['bearer'] },
  'POST /plans': { summary: 'Create a plan (super-admin)', answer: planSchema, auth: ['bearer'], body: planCreateSchema, status: 201, guarded: true, errors: ['ERR_PLAN_DUPLICATED'] },
  'GET /plans/:id': { summary: 'One plan', answer: planSchema, auth: ['bearer'], params: { id: 'ERR_NO_PLAN_FOUND' } },
  'PUT /plans/:id': { summary: 'Change a plan (super-admin)', answer: planSchema, auth: ['bearer'], params: { id: 'ERR_NO_PLAN_FOUND' }, body: planUpdateSchema, guarded: true, errors: ['ERR_PLAN_DUPLICATED'] },
  'DELETE /plans/:id': { summary: 'Delete a plan no company uses (super-admin)', auth: ['bearer'], params: { id: 'ERR_NO_PLAN_FOUND' }, answer: messageAnswerSchema, guarded: true, errors: ['ERR_PLAN_IN_USE'] },
  'GET /companies/listPlan/:companyId': { summary: "A company's plan", answer: planSchema, auth: ['bearer'], params: { companyId: 'ERR_NO_COMPANY_FOUND' } },
});
