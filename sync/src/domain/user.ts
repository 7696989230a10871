import { z } from 'zod';
import { emailSchema, idSchema, timestampSchema, listQuerySchema, passwordSchema, personNameSchema, type Page } from './common.ts';
import { companySchema } from './company.ts';
import { settingSchema } from './setting.ts';
import { LANGUAGES } from '../i18n/errors.ts';
import { PROFILES } from '../permissions.ts';

// Users (spec/01 §3, spec/03 §3 and §5): the bodies of POST /users and PUT /users/{id}, the list
// query, the language a user picks (one of the interface languages of i18n/), and the one user shape
// every transport sends: REST answers, the session answers of /auth/* and user/<id> alike.

export const languageSchema = z.enum(LANGUAGES);

export const profileSchema = z.enum(PROFILES);

/** The spec spells the "off" value `desabled`; `disabled` is accepted too and stored the spec's way. */
export const ALL_TICKET_VALUES = ['enabled', 'desabled'] as const;
export type AllTicket = (typeof ALL_TICKET_VALUES)[number];
export const allTicketSchema = z
  .enum(['enabled', 'desabled', 'disabled'])
  .transform((v): AllTicket => (v === 'disabled' ? 'desabled' : v));

// Forms send '' for "no connection" and may repeat a queue; both are normalised here, once.
const whatsappIdSchema = z.preprocess((v) => (v === '' ? null : v), idSchema.nullable());
const queueIdsSchema = z.array(idSchema).max(500).transform((ids) => [...new Set(ids)]);

export const userCreateSchema = z.object({
  name: personNameSchema,
  email: emailSchema,
  password: passwordSchema,
  profile: profileSchema.optional().default('user'),
  queueIds: queueIdsSchema.optional().default([]),
  whatsappId: whatsappIdSchema.optional().default(null),
  allTicket: allTicketSchema.optional().default('desabled'),
  showNoQueue: z.boolean().optional().default(false),
  language: languageSchema.nullable().optional(),
  /** Another company is honoured only for the super-admin (anyone else naming one gets 404); default: the caller's. */
  companyId: idSchema.optional(),
});
export type UserCreateInput = z.infer<typeof userCreateSchema>;

export const userUpdateSchema = z.object({
  name: personNameSchema.optional(),
  email: emailSchema.optional(),
  // The user modal sends an empty password when it is left unchanged.
  password: z.preprocess((v) => (v === '' || v === null ? undefined : v), passwordSchema.optional()),
  profile: profileSchema.optional(),
  queueIds: queueIdsSchema.optional(),
  whatsappId: whatsappIdSchema.optional(),
  allTicket: allTicketSchema.optional(),
  showNoQueue: z.boolean().optional(),
  language: languageSchema.nullable().optional(),
  /** The company the user lives in; read only for the super-admin and never moves a user. */
  companyId: idSchema.optional(),
});
export type UserUpdateInput = z.infer<typeof userUpdateSchema>;

/** GET /users: search over name and email, one page; a super-admin may name another company. */
export const userListQuerySchema = listQuerySchema.extend({
  companyId: idSchema.optional(),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

/** The optional `?companyId=` of the other user routes (super-admin only). */
export const companyScopeQuerySchema = z.object({ companyId: idSchema.optional() });

/** POST /users/set-language/{lang}. */
export const setLanguageParamsSchema = z.object({ lang: languageSchema });

/** A queue a user works in, as the user answers carry it. */
export const userQueueSchema = z.object({ id: z.number().int(), name: z.string(), color: z.string() });
export type UserQueue = z.infer<typeof userQueueSchema>;

/** The signed-in user's company as the session answers carry it (spec/01 §3: name, dueDate, email, trial). */
export const userCompanySchema = companySchema
  .pick({ id: true, name: true, email: true, dueDate: true, trialExpiration: true, status: true, planId: true })
  .extend({ settings: z.array(settingSchema).describe('Every setting of the company (defaults filled)') });
export type UserCompany = z.infer<typeof userCompanySchema>;

/**
 * A user as every answer sends it (spec/01 §3 "User (shared shape)"), never the password hash. The
 * signed-in user's own extras are optional and filled only where they belong, on REST and sync
 * alike: `language` on the user's own row, `company` on the session answers (/auth/login,
 * /auth/refresh_token, /auth/me).
 */
export const userSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  profile: z.string().describe('admin, supervisor or user'),
  super: z.boolean().describe('The platform super-admin'),
  companyId: z.number().int(),
  whatsappId: z.number().int().nullable().describe('Default connection of the user'),
  allTicket: z.string().describe('enabled or desabled (sic): sees the pending tickets of every queue'),
  showNoQueue: z.boolean().describe('Sees tickets without a queue'),
  online: z.boolean(),
  queues: z.array(userQueueSchema).describe('The queues the user works in, in queue order'),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  language: z.string().nullable().optional().describe('pt, en or es (null: the browser decides); only on the own row'),
  company: userCompanySchema.optional().describe('Only on the session answers'),
});
export type User = z.infer<typeof userSchema>;

/** The signed-in user as login, refresh and /auth/me answer: their own row, so both extras are there. */
export const sessionUserSchema = userSchema.required({ language: true, company: true });
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** GET /users: one page of the search. */
export type UsersPage = Page<'users', User> & { count: number };
