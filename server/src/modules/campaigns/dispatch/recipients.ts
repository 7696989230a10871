// Who a campaign goes to: the items of its contact list and, when a tag list is chosen, the contacts
// whose tickets carry that tag (tags live on tickets). Written once as shipping rows when the
// campaign starts (or restarts), in the starting write: INSERT … ON CONFLICT DO NOTHING on the unique
// (company, campaign, number), so a restart, a second instance or a repeated check never adds a
// second row for a number, and rows already sent, failed or skipped keep their state.
// A number the list marks not on WhatsApp, or too short or long to be one, is written `skipped`
// with reason `invalid` and counted; opt-outs are judged at claim time (claim.ts), since a contact
// may reply STOP while the campaign runs.
import { tenant } from '../../../db/tenant.ts';
import type { Tx } from '../../../db/write.ts';
import type { CampaignRow } from '../dto.ts';

type Recipient = { number: string; name: string; email: string; contactListItemId: number | null; contactId: number | null; valid: boolean };

const digitsOf = (n: string) => n.replace(/\D/g, '');
/** E.164 allows at most 15 digits; the spec's list items need at least 8 characters. */
const plausible = (digits: string) => digits.length >= 8 && digits.length <= 15;

async function recipientsOf(tx: Tx, campaign: CampaignRow): Promise<Recipient[]> {
  const t = tenant(tx.db, campaign.companyId);
  const byNumber = new Map<string, Recipient>();
  if (campaign.contactListId !== null) {
    const items = await t
      .selectFrom('contactListItems')
      .select(['contactListItems.id', 'contactListItems.name', 'contactListItems.number', 'contactListItems.email', 'contactListItems.isWhatsappValid'])
      .where('contactListItems.contactListId', '=', campaign.contactListId)
      .orderBy('contactListItems.id')
      .execute();
    for (const i of items) {
      const number = digitsOf(i.number);
      if (byNumber.has(number)) continue;
      byNumber.set(number, { number, name: i.name, email: i.email, contactListItemId: i.id, contactId: null, valid: i.isWhatsappValid !== 0 && plausible(number) });
    }
  }
  if (campaign.tagId !== null) {
    const tagged = t.selectFrom('ticketTags').innerJoin('tickets', 'tickets.id', 'ticketTags.ticketId').select('tickets.contactId').where('ticketTags.tagId', '=', campaign.tagId);
    const contacts = await t
      .selectFrom('contacts')
      .select(['contacts.id', 'contacts.name', 'contacts.number', 'contacts.email'])
      .where('contacts.id', 'in', tagged)
      .where('contacts.isGroup', '=', 0)
      .orderBy('contacts.id')
      .execute();
    for (const c of contacts) {
      const number = digitsOf(c.number);
      if (byNumber.has(number)) continue;
      byNumber.set(number, { number, name: c.name, email: c.email, contactListItemId: null, contactId: c.id, valid: plausible(number) });
    }
  }
  return [...byNumber.values()];
}

/** Writes the campaign's missing shipping rows; answers how many were new. */
export async function materializeShipping(tx: Tx, campaign: CampaignRow, now: Date): Promise<number> {
  const recipients = await recipientsOf(tx, campaign);
  const at = now.toISOString();
  let added = 0;
  for (let i = 0; i < recipients.length; i += 500) {
    const rows = recipients.slice(i, i + 500).map((r) => ({
      companyId: campaign.companyId,
      campaignId: campaign.id,
      number: r.number,
      name: r.name,
      email: r.email,
      contactListItemId: r.contactListItemId,
      contactId: r.contactId,
      status: r.valid ? 'pending' : 'skipped',
      reason: r.valid ? null : 'invalid',
      createdAt: at,
      updatedAt: at,
    }));
    const res = await tx.db.insertInto('campaignShippings').values(rows).onConflict((oc) => oc.columns(['companyId', 'campaignId', 'number']).doNothing()).returning('campaignShippings.id').execute();
    added += res.length;
  }
  return added;
}
