import { CONNECTION_PROVIDERS } from '@zapdesk/sync';
import { z } from 'zod';
import { fromFileOption } from '../../input.ts';

export const companyScope = z.object({
  companyId: z.string().optional().describe("the company (super-admin; default: your own)"),
});

export const connectionOptions = companyScope.extend({
  fromFile: fromFileOption,
  name: z.string().optional().describe('connection name, 2 to 50 characters'),
  provider: z.enum(CONNECTION_PROVIDERS).optional().describe('beta is real WhatsApp; simulator is the built-in fake network'),
  isDefault: z.boolean().optional().describe('the default connection of the company'),
  greetingMessage: z.string().optional().describe('greeting sent to a new contact'),
  queueIds: z
    .string()
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
    .optional()
    .describe('queue ids, comma-separated'),
});

export const scopeQuery = (companyId: string | undefined) => ({ companyId: companyId ? Number(companyId) : undefined });
