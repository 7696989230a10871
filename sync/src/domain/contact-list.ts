import { z } from 'zod';
import { emailSchema, listQuerySchema, timestampSchema } from './common.ts';
import { contactNameSchema, contactNumberSchema } from './contact.ts';
import { refIdSchema } from './tag.ts';

// Contact lists and their items (spec/03 §3, §5, §7): the recipients of campaigns. Request bodies,
// queries and the one wire shape of each; REST answers them (the lists stay on paginated REST and
// refresh on poke, DESIGN §4), the CLI parses its flags with the same schemas.

/** spec/03 §5: a contact list's name is required, 2 to 50 characters. */
export const contactListNameSchema = z.string().trim().min(2, 'Too Short!').max(50, 'Too Long!');

export const contactListCreateSchema = z.object({
  name: contactListNameSchema,
  /** Sent by the forms; the list always belongs to the caller's company. */
  companyId: z.unknown().optional(),
});
export type ContactListCreateInput = z.infer<typeof contactListCreateSchema>;

export const contactListUpdateSchema = contactListCreateSchema;
export type ContactListUpdateInput = ContactListCreateInput;

/** GET /contact-lists: searchParam over the name, pageNumber. */
export const contactListPageQuerySchema = listQuerySchema;

/** GET /contact-lists/list: every list of the company for a select (`companyId` is the caller's, whatever is sent). */
export const contactListOptionsQuerySchema = z.object({ companyId: z.unknown().optional() });

/** A contact list as GET /contact-lists/{id}, the pages and /contact-lists/list answer it. */
export const contactListSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  contactsCount: z.number().int().describe('How many items the list holds'),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type ContactList = z.infer<typeof contactListSchema>;

const optionalEmailSchema = z.preprocess((v) => (v === null || v === undefined ? '' : v), z.union([z.literal(''), emailSchema]));

/** POST /contact-list-items (spec/03 §5: name 2 to 50, number 8 to 50, email valid when given). */
export const contactListItemCreateSchema = z.object({
  name: contactNameSchema,
  number: contactNumberSchema,
  email: optionalEmailSchema.optional().default(''),
  contactListId: refIdSchema,
  companyId: z.unknown().optional(),
});
export type ContactListItemCreateInput = z.infer<typeof contactListItemCreateSchema>;

/** PUT /contact-list-items/{id}: a field left out keeps its value; an item never moves to another list. */
export const contactListItemUpdateSchema = z.object({
  name: contactNameSchema.optional(),
  number: contactNumberSchema.optional(),
  email: optionalEmailSchema.optional(),
  contactListId: z.unknown().optional(),
  companyId: z.unknown().optional(),
});
export type ContactListItemUpdateInput = z.infer<typeof contactListItemUpdateSchema>;

/** GET /contact-list-items: one list's items, searched over name, number and email. */
export const contactListItemQuerySchema = listQuerySchema.extend({ contactListId: refIdSchema });
export type ContactListItemQuery = z.infer<typeof contactListItemQuerySchema>;

/** A list item as the server sends it. */
export const contactListItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  number: z.string().describe('Digits only'),
  email: z.string(),
  isWhatsappValid: z.boolean().nullable().describe('Checked through a connected WhatsApp connection after the item is saved; null until then'),
  companyId: z.number().int(),
  contactListId: z.number().int(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type ContactListItem = z.infer<typeof contactListItemSchema>;
