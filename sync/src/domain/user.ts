import { z } from 'zod';
import { emailSchema, idSchema, listQuerySchema, passwordSchema, personNameSchema } from './common.ts';
import { LANGUAGES } from '../i18n/errors.ts';
import { PROFILES } from '../permissions.ts';

// Users (spec/01 §3, spec/03 §3 and §5): the bodies of POST /users and PUT /users/{id}, the list
// query, and the language a user picks (one of the interface languages of i18n/).

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
