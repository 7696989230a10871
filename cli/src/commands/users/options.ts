// User flags: the fields of userCreateSchema/userUpdateSchema from sync/. The password comes from
// standard input or the file, never a flag, so it stays out of the shell history and `ps`.
import { ALL_TICKET_VALUES, LANGUAGES, PROFILES } from '@zapdesk/sync';
import { z } from 'zod';
import { fromFileOption } from '../../input.ts';

const ids = z
  .string()
  .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
  .describe('queue ids, comma-separated (1,4,7)');

export const companyScope = z.object({
  companyId: z.string().optional().describe('the company (super-admin; default: your own)'),
});

export const userOptions = companyScope.extend({
  fromFile: fromFileOption,
  name: z.string().optional().describe('full name, 2 to 50 characters'),
  email: z.string().optional().describe('login email'),
  passwordStdin: z.boolean().default(false).describe('read the password (5 to 50 characters) from standard input'),
  profile: z.enum(PROFILES).optional().describe('what the user may do'),
  queueIds: ids.optional(),
  whatsappId: z.string().optional().describe('default connection id'),
  allTicket: z.enum([...ALL_TICKET_VALUES, 'disabled']).optional().describe('sees every ticket of their queues'),
  showNoQueue: z.boolean().optional().describe('sees tickets without a queue'),
  language: z.enum(LANGUAGES).optional().describe('interface language'),
});
