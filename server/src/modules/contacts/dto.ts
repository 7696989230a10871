// The contact as every transport sends it (`contactSchema` in @zapdesk/sync): GET /contacts/{id},
// the pages of GET /contacts and contact/<id> of the client view all come from toContactDtos.
import type { Contact, ContactExtraInfo } from '@zapdesk/sync';
import type { Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import type { ContactRow } from './queries.ts';

/** The custom fields of many contacts in one query, each list in the order the fields were added. */
async function findExtraInfoOf(db: Database, companyId: number, contactIds: number[]): Promise<Map<number, ContactExtraInfo[]>> {
  const byContact = new Map<number, ContactExtraInfo[]>();
  if (contactIds.length === 0) return byContact;
  const rows = await tenant(db, companyId)
    .selectFrom('contactCustomFields')
    .select(['contactCustomFields.id', 'contactCustomFields.contactId', 'contactCustomFields.name', 'contactCustomFields.value'])
    .where('contactCustomFields.contactId', 'in', contactIds)
    .orderBy('contactCustomFields.id')
    .execute();
  for (const { contactId, ...field } of rows) byContact.set(contactId, [...(byContact.get(contactId) ?? []), field]);
  return byContact;
}

/** Contact rows of one company → what the API sends, custom fields included (one query whatever the count). */
export async function toContactDtos(db: Database, companyId: number, rows: ContactRow[]): Promise<Contact[]> {
  const extra = await findExtraInfoOf(db, companyId, rows.map((r) => r.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    profilePicUrl: row.profilePicUrl,
    isGroup: row.isGroup === 1,
    disableBot: row.disableBot === 1,
    jid: row.jid,
    lid: row.lid,
    whatsappId: row.whatsappId,
    extraInfo: extra.get(row.id) ?? [],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: row.version,
  }));
}

export async function toContactDto(db: Database, companyId: number, row: ContactRow): Promise<Contact> {
  return (await toContactDtos(db, companyId, [row]))[0]!;
}
