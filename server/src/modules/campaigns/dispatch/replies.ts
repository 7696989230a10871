// A contact's reply to a confirmation campaign (DESIGN §13). The inbound pipeline asks here for every
// message a contact sends (one indexed read: company, number, status `confirmation`), before its
// automation chain. An explicit yes (CAMPAIGN_YES_WORDS, sync/src/domain/campaign.ts) makes the
// recipient `confirmed`, and the dispatcher then sends the real message under the connection's
// pacing; an explicit no (CAMPAIGN_NO_WORDS, opt-out words included) makes it `declined`; anything
// else is recorded as the recipient's reason (`reply: …`) and it keeps waiting. A yes or a no is
// consumed (the bot does not answer it); anything else goes the normal way as well.
import { parseConfirmationReply } from '@zapdesk/sync';
import type { AppDeps } from '../../../context.ts';
import { tenant } from '../../../db/tenant.ts';
import { write } from '../../../db/write.ts';
import { finishCampaignIfDone } from './outcome.ts';

/** Answers true when the message was a yes or a no to a confirmation question (the caller skips the bot). */
export async function takeConfirmationReply(deps: AppDeps, connectionId: number, contact: { companyId: number; number: string }, body: string): Promise<boolean> {
  const t = tenant(deps.db, contact.companyId);
  const waiting = await t
    .selectFrom('campaignShippings')
    .innerJoin('campaigns', 'campaigns.id', 'campaignShippings.campaignId')
    .select(['campaignShippings.id', 'campaignShippings.campaignId'])
    .where('campaignShippings.number', '=', contact.number)
    .where('campaignShippings.status', '=', 'confirmation')
    .where('campaigns.whatsappId', '=', connectionId)
    .where('campaigns.status', '=', 'EM_ANDAMENTO')
    .orderBy('campaignShippings.id', 'desc')
    .executeTakeFirst();
  if (!waiting) return false;
  const answer = parseConfirmationReply(body ?? '');
  const at = new Date().toISOString();
  await write(deps, async (tx) => {
    const s = tenant(tx.db, contact.companyId);
    const base = s.updateTable('campaignShippings').where('campaignShippings.id', '=', waiting.id).where('campaignShippings.status', '=', 'confirmation');
    if (answer === 'yes') await base.set({ status: 'confirmed', confirmation: 1, confirmedAt: at, reason: null, updatedAt: at }).execute();
    else if (answer === 'no') {
      await base.set({ status: 'declined', reason: 'declined', updatedAt: at }).execute();
      await finishCampaignIfDone(tx.db, contact.companyId, waiting.campaignId, new Date());
    } else await base.set({ reason: `reply: ${(body ?? '').slice(0, 200)}`, updatedAt: at }).execute();
    tx.effects.poke(contact.companyId);
  });
  return answer !== 'other';
}
