// The OpenAPI documents of the users routes: the schemas their handlers parse (http/openapi/README.md).
import { companyScopeQuerySchema, languageSchema, messageAnswerSchema, pageSchema, userCreateSchema, userListQuerySchema, userSchema, userUpdateSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

const WRITE_ERRORS = ['ERR_EMAIL_IN_USE', 'ERR_LAST_ADMIN', 'ERR_NO_COMPANY_FOUND', 'ERR_NO_PERMISSION', 'ERR_NOT_FOUND'] as const;

export const usersDocs = area('Users', "The company's attendants, supervisors and admins. A super-admin may name another company with companyId.", {
  'GET /users': { summary: 'A page of users', auth: ['bearer'], query: userListQuerySchema, guarded: true, answer: pageSchema('users', userSchema, { count: true }), errors: ['ERR_NO_COMPANY_FOUND'] },
  'GET /users/list': {
    summary: 'Every user of the company, for pickers',
    auth: ['bearer'],
    query: companyScopeQuerySchema,
    answer: z.array(userSchema.pick({ id: true, name: true, email: true, profile: true, queues: true })),
    errors: ['ERR_NO_COMPANY_FOUND'],
  },
  'GET /users/:id': { summary: 'One user', auth: ['bearer'], params: { id: 'ERR_NO_USER_FOUND' }, query: companyScopeQuerySchema, answer: userSchema, errors: ['ERR_NO_COMPANY_FOUND', 'ERR_NO_PERMISSION'] },
  'POST /users': { summary: 'Create a user', auth: ['bearer'], body: userCreateSchema, status: 201, guarded: true, answer: userSchema, errors: [...WRITE_ERRORS, 'ERR_USER_LIMIT_REACHED', 'ERR_EMAIL_IN_USE', 'ERR_NO_COMPANY_FOUND'] },
  'PUT /users/:id': { summary: 'Change a user (users may change themselves)', auth: ['bearer'], params: { id: 'ERR_NO_USER_FOUND' }, query: companyScopeQuerySchema, body: userUpdateSchema, answer: userSchema, errors: [...WRITE_ERRORS] },
  'DELETE /users/:id': {
    summary: 'Delete a user (their tickets go back to pending)',
    auth: ['bearer'],
    params: { id: 'ERR_NO_USER_FOUND' },
    query: companyScopeQuerySchema,
    answer: messageAnswerSchema,
    guarded: true,
    errors: ['ERR_CANNOT_DELETE_SELF', 'ERR_LAST_ADMIN', 'ERR_NO_COMPANY_FOUND'],
  },
  'POST /users/set-language/:lang': { summary: "Set the signed-in user's interface language", auth: ['bearer'], params: { lang: languageSchema }, answer: userSchema, errors: ['ERR_VALIDATION'] },
});
