import { z } from 'zod';
import { emailSchema, idSchema, listQuerySchema, timestampSchema } from './common.ts';

// Contacts (spec/02 §3, §5, §7): the shape the API answers (`contactSchema`: GET /contacts/{id} and
// the client view's contact/<id> alike), the bodies of the contact routes, and the phone-number
// rules the pipeline, the external API and the forms share.

/** Digits only: "+55 (11) 99999-0000" → "5511999990000". */
export function toDigits(value: string): string {
  return value.replace(/\D/g, '');
}

/** The user part of a JID ("5511999990000:12@s.whatsapp.net" → "5511999990000"), or undefined. */
export function jidUser(jid: string | undefined | null): string | undefined {
  if (!jid) return undefined;
  const user = jid.split('@')[0]?.split(':')[0] ?? '';
  return user === '' ? undefined : user;
}

/** A phone number as forms and the external API send it: 8 to 20 digits once the mask is dropped. */
export const phoneNumberSchema = z
  .string()
  .trim()
  .transform(toDigits)
  .pipe(z.string().min(8, 'Too Short!').max(20, 'Too Long!'));

export const contactNameSchema = z.string().trim().min(2, 'Too Short!').max(50, 'Too Long!');

/** The contact form's number (spec/02 §5: 8 to 50): digits once "+", spaces, dashes and parentheses are dropped. */
export const contactNumberSchema = z
  .string()
  .trim()
  .refine((v) => !/[\p{L}]/u.test(v), 'Invalid number')
  .transform(toDigits)
  .pipe(z.string().min(8, 'Too Short!').max(50, 'Too Long!'));

const optionalEmailSchema = z.preprocess((v) => (v === null ? '' : v), z.union([z.literal(''), emailSchema]));

export const extraInfoSchema = z.array(z.object({ id: idSchema.optional(), name: z.string().trim().min(1).max(100), value: z.string().max(1000) })).max(100);

/** POST /contacts (spec/02 §5: name 2-50, number 8-50, email valid when given). */
export const contactCreateSchema = z.object({
  name: contactNameSchema,
  number: contactNumberSchema,
  email: optionalEmailSchema.optional().default(''),
  extraInfo: extraInfoSchema.optional().default([]),
  disableBot: z.boolean().optional(),
});
export type ContactCreateInput = z.infer<typeof contactCreateSchema>;

/** PUT /contacts/{id}: the same rules; a field left out keeps its value, a given extraInfo replaces the list. */
export const contactUpdateSchema = z.object({
  name: contactNameSchema.optional(),
  number: contactNumberSchema.optional(),
  email: optionalEmailSchema.optional(),
  extraInfo: extraInfoSchema.optional(),
  disableBot: z.boolean().optional(),
});
export type ContactUpdateInput = z.infer<typeof contactUpdateSchema>;

export const contactListQuerySchema = listQuerySchema.extend({
  date: z.iso.date().optional(),
  dateStart: z.iso.date().optional(),
  dateEnd: z.iso.date().optional(),
});
export type ContactListQuery = z.infer<typeof contactListQuerySchema>;

/** GET /contacts/list: every contact for a select, optionally filtered by name. */
export const contactOptionsQuerySchema = z.object({ name: z.string().trim().max(100).optional().default('') });
export type ContactOption = { id: number; name: string; number: string };

export const contactExtraInfoSchema = z.object({ id: z.number().int().positive(), name: z.string(), value: z.string() });
export type ContactExtraInfo = z.infer<typeof contactExtraInfoSchema>;

/** One contact as the server sends it: GET /contacts/{id}, the pages of GET /contacts, contact/<id> in the client view. */
export const contactSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  number: z.string().describe('Digits only. A contact known only by its WhatsApp LID is filed under the LID digits until the network reveals its phone number.'),
  email: z.string().describe('Empty when unknown.'),
  profilePicUrl: z.string().nullable(),
  isGroup: z.boolean(),
  disableBot: z.boolean().describe('The bot (queue menu, flows, AI) stays silent with this contact.'),
  jid: z.string().nullable().describe('Phone-number JID, when known: a contact may have only one of jid and lid.'),
  lid: z.string().nullable().describe('WhatsApp linked identity (LID), when known.'),
  whatsappId: z.number().int().positive().nullable().describe('The connection the contact was first seen on.'),
  extraInfo: z.array(contactExtraInfoSchema).describe('Custom fields, in the order they were added.'),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  version: z.number().int().nonnegative().describe('Row version, bumped on every write (sync row versioning).'),
});
export type Contact = z.infer<typeof contactSchema>;

export type ContactsPage = { contacts: Contact[]; hasMore: boolean; count: number };

export const contactKey = (id: number) => `contact/${id}`;

// ── Imports (spec/02 §7 POST /contacts/upload, the CLI's `contacts import`) ────────────────────

/** Column titles a spreadsheet may use for each field, compared lower-cased without accents. */
const COLUMNS = {
  name: ['name', 'nome', 'nombre', 'contact', 'contato', 'contacto', 'full name', 'nome completo'],
  number: ['number', 'numero', 'phone', 'telefone', 'telefono', 'celular', 'whatsapp', 'mobile', 'fone'],
  email: ['email', 'e-mail', 'mail', 'correo'],
} as const;

const fold = (key: string) => key.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase();

/** A cell as text: numbers without exponent noise, anything else as the spreadsheet wrote it. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  return String(value).trim();
}

export type ContactColumns = Partial<Record<keyof ContactImportRow, number>>;

/** Where name, number and email sit in a row of column titles; undefined when no title is known. */
export function findContactColumns(titles: readonly unknown[]): ContactColumns | undefined {
  const found: ContactColumns = {};
  titles.forEach((title, index) => {
    const folded = fold(cellText(title));
    for (const field of ['name', 'number', 'email'] as const) {
      if (found[field] === undefined && (COLUMNS[field] as readonly string[]).includes(folded)) found[field] = index;
    }
  });
  return found.name === undefined && found.number === undefined ? undefined : found;
}

/** The columns of a sheet without a title row: name, number, email, in that order. */
export const POSITIONAL_COLUMNS: ContactColumns = { name: 0, number: 1, email: 2 };

/** The fields of one row of cells, by the columns found in the title row. */
export function pickContactCells(cells: readonly unknown[], columns: ContactColumns): ContactImportRow {
  const at = (i: number | undefined) => (i === undefined ? '' : cellText(cells[i]));
  return { name: at(columns.name), number: at(columns.number), email: at(columns.email) };
}

/** The fields of one row given as an object keyed by column title (the web's sheet-to-JSON rows). */
export function pickContactFields(record: Record<string, unknown>): ContactImportRow {
  const keys = Object.keys(record);
  const columns = findContactColumns(keys) ?? {};
  return pickContactCells(keys.map((k) => record[k]), columns);
}

export type ContactImportRow = { name: string; number: string; email: string };

/**
 * A row that did not land, with every column the import reads (the CLI's --errors file keeps them,
 * so the rows can be fixed and imported again): `rejected` is a bad row, `skipped` a number the
 * company already has.
 */
export type ContactImportIssue = ContactImportRow & {
  row: number;
  kind: 'rejected' | 'skipped';
  code: 'ERR_VALIDATION' | 'ERR_DUPLICATED_CONTACT';
  reason: string;
};

export type ContactImportCounts = { rows: number; imported: number; skipped: number; rejected: number };
export type ContactImportSummary = ContactImportCounts & { importId: string };

/** The NDJSON lines of POST /contacts/import/file, in this order: start, (issue | progress)*, done or failed. */
export type ContactImportEvent =
  | { type: 'start'; importId: string }
  | ({ type: 'issue' } & ContactImportIssue)
  | ({ type: 'progress' } & ContactImportCounts)
  | ({ type: 'done' } & ContactImportSummary)
  | ({ type: 'failed'; error: string; message: string } & ContactImportSummary);

/** POST /contacts/import/rows: one batch of rows (the CLI's alternative to uploading the file). */
export const contactImportRowsSchema = z.object({
  importId: z.string().trim().min(1).max(64).regex(/^[\w.:-]+$/).optional(),
  /** The spreadsheet row number of rows[0], for the report (2: row 1 holds the titles). */
  firstRow: z.coerce.number().int().min(1).optional().default(2),
  rows: z.array(z.record(z.string(), z.unknown())).max(5_000),
});
export type ContactImportRowsInput = z.infer<typeof contactImportRowsSchema>;

/** POST /contacts/upload: the rows of the sheet, as an array or as `{rows}`. */
export const contactUploadSchema = z.union([
  z.array(z.record(z.string(), z.unknown())).max(10_000),
  z.object({ rows: z.array(z.record(z.string(), z.unknown())).max(10_000) }).transform((v) => v.rows),
]);

export type ContactUploadResult = {
  newContacts: { contactId: number; contactName: string }[];
  errorBag: { contactName: string; row: number; error: { message: string; code: ContactImportIssue['code'] } }[];
};
