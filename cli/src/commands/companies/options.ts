// Company flags: the fields of companyCreateSchema/companyUpdateSchema from sync/. Address fields and
// schedules are read from --from-file only, to keep --help short.
import { RECURRENCES } from '@zapdesk/sync';
import { z } from 'zod';
import { fromFileOption } from '../../input.ts';

export const companyOptions = z.object({
  fromFile: fromFileOption,
  name: z.string().optional().describe('company name, 2 to 50 characters'),
  email: z.string().optional().describe('contact email (also the first admin\'s login unless --admin-email)'),
  phone: z.string().optional().describe('phone, (99) 99999-9999 or digits'),
  planId: z.string().optional().describe('plan id (zapdesk plans list)'),
  status: z.boolean().optional().describe('active'),
  dueDate: z.string().optional().describe('due date, 2026-12-31 or an ISO date-time'),
  recurrence: z.enum(RECURRENCES).optional().describe('billing recurrence'),
  campaignsEnabled: z.boolean().optional().describe('campaigns shown even without the plan feature'),
  document: z.string().optional().describe('tax document (CNPJ/CPF)'),
  paymentMethod: z.string().optional().describe('payment method'),
});

export const companyCreateOptions = companyOptions.extend({
  adminName: z.string().optional().describe('first admin\'s name (default: the company name)'),
  adminEmail: z.string().optional().describe('first admin\'s login email (default: --email)'),
  adminPasswordStdin: z.boolean().default(false).describe('create the first admin with the password read from standard input'),
});
