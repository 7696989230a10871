import { z } from 'zod';
import { emailSchema, idSchema, listQuerySchema } from './common.ts';

// Contacts (spec/02 §3, §5, §7): the shape the API answers, the bodies of the contact routes, and
// the phone-number rules the pipeline, the external API and the forms share.

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

export const extraInfoSchema = z.array(z.object({ id: idSchema.optional(), name: z.string().trim().min(1).max(100), value: z.string().max(1000) })).max(100);

/** POST /contacts (spec/02 §5: name 2-50, number 8-50, email valid when given). */
export const contactCreateSchema = z.object({
  name: contactNameSchema,
  number: phoneNumberSchema,
  email: z.preprocess((v) => (v === null ? '' : v), z.union([z.literal(''), emailSchema]).optional().default('')),
  extraInfo: extraInfoSchema.optional().default([]),
  disableBot: z.boolean().optional(),
});
export type ContactCreateInput = z.infer<typeof contactCreateSchema>;

export const contactUpdateSchema = contactCreateSchema.partial();
export type ContactUpdateInput = z.infer<typeof contactUpdateSchema>;

export const contactListQuerySchema = listQuerySchema.extend({
  date: z.iso.date().optional(),
  dateStart: z.iso.date().optional(),
  dateEnd: z.iso.date().optional(),
});
export type ContactListQuery = z.infer<typeof contactListQuerySchema>;

export type ContactExtraInfo = { id: number; name: string; value: string };

export type Contact = {
  id: number;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string | null;
  isGroup: boolean;
  disableBot: boolean;
  /** Phone-number JID and linked identity, when known: a contact may have only one of them. */
  jid: string | null;
  lid: string | null;
  whatsappId: number | null;
  extraInfo: ContactExtraInfo[];
  createdAt: string;
  updatedAt: string;
  version: number;
};

export const contactKey = (id: number) => `contact/${id}`;
