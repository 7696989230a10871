// The OpenAPI documents of the contacts routes: the schemas their handlers parse (http/openapi/README.md).
import {
  contactCreateSchema,
  contactImportRowsSchema,
  contactListQuerySchema,
  contactOptionsQuerySchema,
  contactSchema,
  contactUpdateSchema,
  contactUploadSchema,
  messageAnswerSchema,
  pageSchema,
  type ContactImportIssue,
  type ContactImportSummary,
  type ContactOption,
  type ContactUploadResult,
} from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

const importCode = z.enum(['ERR_VALIDATION', 'ERR_DUPLICATED_CONTACT']);
const importSummarySchema: z.ZodType<ContactImportSummary> = z.object({
  importId: z.string(),
  rows: z.number().int(),
  imported: z.number().int(),
  skipped: z.number().int(),
  rejected: z.number().int(),
});
const importIssueSchema: z.ZodType<ContactImportIssue> = z.object({
  name: z.string(),
  number: z.string(),
  email: z.string(),
  row: z.number().int(),
  kind: z.enum(['rejected', 'skipped']),
  code: importCode,
  reason: z.string(),
});
const uploadResultSchema: z.ZodType<ContactUploadResult> = z.object({
  newContacts: z.array(z.object({ contactId: z.number().int(), contactName: z.string() })),
  errorBag: z.array(z.object({ contactName: z.string(), row: z.number().int(), error: z.object({ message: z.string(), code: importCode }) })),
});
const contactOptionSchema: z.ZodType<ContactOption> = z.object({ id: z.number().int(), name: z.string(), number: z.string() });
const spreadsheet = { file: 'file', description: 'A spreadsheet (.xlsx, .xls or .csv; told apart by its bytes) whose first row names the columns (name, number, email).' };

export const contactsDocs = area('Contacts', "The company's contacts: the people tickets talk to. Numbers are unique per company.", {
  'GET /contacts': { summary: 'A page of contacts, searched and filtered', auth: ['bearer'], query: contactListQuerySchema, answer: pageSchema('contacts', contactSchema, { count: true }) },
  'GET /contacts/list': { summary: 'Contacts whose name matches, for pickers', auth: ['bearer'], query: contactOptionsQuerySchema, answer: z.array(contactOptionSchema) },
  'GET /contacts/export': { summary: 'Every contact as CSV', auth: ['bearer'], answer: { contentType: 'text/csv', description: 'name, number, email… one contact a line' } },
  'POST /contacts/upload': { summary: 'Import the rows of a sheet read by the client', auth: ['bearer'], body: contactUploadSchema, answer: uploadResultSchema },
  'POST /contacts/import': { summary: "Import the contacts of the default connection's phone book", auth: ['bearer'], answer: z.object({ count: z.number().int() }), errors: ['ERR_NO_DEF_WAPP_FOUND', 'ERR_WAPP_NOT_INITIALIZED'] },
  'POST /contacts/import/rows': { summary: 'Import one batch of rows (resumable by importId)', auth: ['bearer'], body: contactImportRowsSchema, answer: importSummarySchema.and(z.object({ issues: z.array(importIssueSchema) })) },
  'POST /contacts/import/file': {
    summary: 'Import a spreadsheet, answering its progress as NDJSON lines',
    auth: ['bearer'],
    multipart: spreadsheet,
    answer: { contentType: 'application/x-ndjson', description: 'Lines: start, then issue or progress, then done (or failed)' },
  },
  'GET /contacts/:id': { summary: 'One contact', auth: ['bearer'], params: { id: 'ERR_NO_CONTACT_FOUND' }, answer: contactSchema },
  'POST /contacts': { summary: 'Create a contact', auth: ['bearer'], body: contactCreateSchema, status: 201, answer: contactSchema, errors: ['ERR_DUPLICATED_CONTACT'] },
  'PUT /contacts/:id': { summary: 'Change a contact', auth: ['bearer'], params: { id: 'ERR_NO_CONTACT_FOUND' }, body: contactUpdateSchema, answer: contactSchema, errors: ['ERR_DUPLICATED_CONTACT'] },
  'DELETE /contacts/:id': { summary: 'Delete a contact and its tickets', auth: ['bearer'], params: { id: 'ERR_NO_CONTACT_FOUND' }, answer: messageAnswerSchema, guarded: true },
});
