// The OpenAPI documents of the auth routes: the schemas their handlers parse (http/openapi/README.md).
import { emailSchema, loginSchema, messageAnswerSchema, newPasswordSchema, sessionAnswerSchema, sessionUserSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

const SESSION_REFUSALS = ['ERR_COMPANY_INACTIVE', 'ERR_SUBSCRIPTION_EXPIRED'] as const;

export const authDocs = area(
  'Auth',
  'Sessions: a login answers a short-lived access token (send it as `Authorization: Bearer …`) and sets the refresh cookie `jrt`, which POST /auth/refresh_token trades for a new token and cookie.',
  {
    'POST /auth/login': {
      summary: 'Sign in with email and password',
      auth: [],
      body: loginSchema,
      answer: sessionAnswerSchema,
      errors: ['ERR_INVALID_CREDENTIALS', 'ERR_TOO_MANY_REQUESTS', ...SESSION_REFUSALS],
    },
    'POST /auth/refresh_token': { summary: 'A new access token for the refresh cookie (the cookie rotates)', auth: ['refreshCookie'], answer: sessionAnswerSchema, errors: [...SESSION_REFUSALS] },
    'DELETE /auth/logout': {
      summary: 'End the session of the refresh cookie (or of the access token, even expired)',
      description: 'Always answers 200: a session already gone is no error.',
      auth: ['refreshCookie', 'bearer'],
      answer: messageAnswerSchema,
    },
    'GET /auth/me': { summary: 'The signed-in user', auth: ['bearer'], answer: sessionUserSchema },
    'POST /forgetpassword/:email': {
      summary: 'Mail a password reset code',
      auth: [],
      params: { email: emailSchema },
      answer: messageAnswerSchema,
      errors: ['ERR_VALIDATION', 'ERR_USER_DONT_EXISTS', 'ERR_TOO_MANY_REQUESTS'],
    },
    'POST /resetpasswords/:email/:token/:newPassword': {
      summary: 'Set a new password with the mailed code',
      auth: [],
      params: { email: emailSchema, token: z.string(), newPassword: newPasswordSchema },
      answer: messageAnswerSchema,
      errors: ['ERR_VALIDATION', 'ERR_INVALID_RESET_CODE', 'ERR_USER_DONT_EXISTS', 'ERR_TOO_MANY_REQUESTS'],
    },
  },
);
