// Who a campaign goes to: the items of its contact list and, when a tag list is chosen, the contacts
// whose tickets carry that tag (tags live on tickets). Written once as shipping rows when the
// campaign starts (or restarts): a slice per write before the starting write, which adds the ones
// that came meanwhile (materializeInSlices). INSERT … ON CONFLICT DO NOTHING on the unique
// (company, campaign, number), so a restart, a second instance or a repeated check never adds a
// second row for a number, and rows already sent, failed or skipped keep their state.
// A number the list marks not on WhatsApp, or too short or long to be one, is written `skipped`
// with reason `invalid` and counted; opt-outs are judged at claim time (claim.ts), since a contact
// may reply STOP while the campaign runs.
import type { AppDeps } from '../../../context.ts';
import { SLICE_ROWS } from '../../../db/slices.ts';
import { tenant } from '../../../db/tenant.ts';
import { write, type Tx } from '../../../db/write.ts';
import type { CampaignRow } from '../dto.ts';

type Recipient = { number: string; name: string; email: string; contactListItemId: number | null; contactId: number | null; valid: boolean };

const digitsOf = (n: string) => n.replace(/\D/g, '');
/** E.164 allows at most 15 digits; the spec's list items need at least 8 characters. */
const plausible = (digits: string) => digits.length >= 8 && digits.length <= 15;

/** Where the writing of a campaign's recipients stands: the last list item and tagged contact read. */
export type RecipientCursor = { item: number; contact: number };
export const FROM_THE_START: RecipientCursor = { item: 0, contact: 0 };

/**
 * The recipients after `cursor`, at most `limit` of them: the list's items by id, then the contacts
 * of the tagged tickets by id. A number seen twice keeps its first row (the insert's ON CONFLICT).
 */
async function recipientsAfter(tx: Tx, campaign: CampaignRow, cursor: RecipientCursor, limit: number): Promise<{ recipients: Recipient[]; cursor: RecipientCursor }> {
  const t = tenant(tx.db, campaign.companyId);
  const recipients: Recipient[] = [];
  const next = { ...cursor };
  if (campaign.contactListId !== null) {
    let items = t
      .selectFrom('contactListItems')
      .select(['contactListItems.id', 'contactListItems.name', 'contactListItems.number', 'contactListItems.email', 'contactListItems.isWhatsappValid'])
      .where('contactListItems.contactListId', '=', campaign.contactListId)
      .where('contactListItems.id', '>', cursor.item)
      .orderBy('contactListItems.id');
    if (Number.isFinite(limit)) items = items.limit(limit);
    for (const i of await items.execute()) {
      const number = digitsOf(i.number);
      recipients.push({ number, name: i.name, email: i.email, contactListItemId: i.id, contactId: null, valid: i.isWhatsappValid !== 0 && plausible(number) });
      next.item = i.id;
    }
  }
  const room = limit - recipients.length;
  if (campaign.tagId !== null && room > 0) {
    const tagged = t.selectFrom('ticketTags').innerJoin('tickets', 'tickets.id', 'ticketTags.ticketId').select('tickets.contactId').where('ticketTags.tagId', '=', campaign.tagId);
    let contacts = t
      .selectFrom('contacts')
      .select(['contacts.id', 'contacts.name', 'contacts.number', 'contacts.email'])
      .where('contacts.id', 'in', tagged)
      .where('contacts.isGroup', '=', 0)
      .where('contacts.id', '>', cursor.contact)
      .orderBy('contacts.id');
    if (Number.isFinite(room)) contacts = contacts.limit(room);
    for (const c of await contacts.execute()) {
      const number = digitsOf(c.number);
      recipients.push({ number, name: c.name, email: c.email, contactListItemId: null, contactId: c.id, valid: plausible(number) });
      next.contact = c.id;
    }
  }
  return { recipients, cursor: next };
}

/**
 * Writes the campaign's missing shipping rows after `cursor` (all of them by default; at most
 * `limit` read for a slice); answers how many were new, how many were read, and the cursor after
 * them.
 */
export async function materializeShipping(tx: Tx, campaign: CampaignRow, now: Date, cursor = FROM_THE_START, limit = Infinity): Promise<{ added: number; read: number; cursor: RecipientCursor }> {
  const { recipients, cursor: next } = await recipientsAfter(tx, campaign, cursor, limit);
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
  return { added, read: recipients.length, cursor: next };
}

/**
 * Writes a campaign's recipients a slice per write (db/slices.ts) while it is still `status`, before
 * the write that starts it; answers where they stand, for that write to add the ones that came
 * since. A list of 100,000 numbers written in the starting write held SQLite's writer 1.1 s, every
 * company waiting. Stops as soon as the campaign is no longer `status` or its delete began; what it
 * wrote stays (a start or restart after writes the same rows once: ON CONFLICT DO NOTHING).
 */
export async function materializeInSlices(deps: AppDeps, companyId: number, campaignId: number, status: 'PROGRAMADA' | 'CANCELADA', now: Date): Promise<RecipientCursor> {
  let cursor = FROM_THE_START;
  for (;;) {
    const step = await write(deps, async (tx) => {
      const row = await tenant(tx.db, companyId).selectFrom('campaigns').selectAll('campaigns').where('campaigns.id', '=', campaignId).executeTakeFirst();
      if (!row || row.status !== status || row.deletingSince !== null) return undefined;
      return materializeShipping(tx, row, now, cursor, SLICE_ROWS);
    });
    if (!step) return cursor;
    cursor = step.cursor;
    if (step.read < SLICE_ROWS) return cursor;
  }
}
