// A contact's reply to a confirmation campaign (DESIGN §13). The inbound pipeline asks here for every
// message a contact sends (one indexed read: company, number, status `confirmation`), before its
// automation chain. An explicit yes (CAMPAIGN_YES_WORDS, sync/src/domain/campaign.ts) makes the
// recipient `confirmed`, and the dispatcher then sends the real message under the connection's
// pacing; an explicit no (CAMPAIGN_NO_WORDS, opt-out words included) makes it `declined`; anything
// else is recorded as the recipient's reason (`reply: …`) and it keeps waiting. A yes or a no is
// consumed (the bot does not answer it). The first unclear answer gets the settings'
// confirmationUnclearReply (through the outbox) and is consumed too; a later one goes the normal
// way (the bot, the agents), so an auto-responder never starts a loop with us.
import { parseConfirmationReply } from '@zapdesk/sync';
import { sql } from 'kysely';
import type { AppDeps } from '../../../context.ts';
import { prepare } from '../../../db/prepared.ts';
import { tenant } from '../../../db/tenant.ts';
import { write } from '../../../db/write.ts';
import { queueTicketMessage } from '../../messages/send.ts';
import type { TicketRow } from '../../tickets/dto.ts';
import { readCampaignSettings } from '../settings.ts';
import { finishCampaignIfDone } from './outcome.ts';

// Asked for every inbound message: compiled once (../../../db/prepared.ts). Literals for the statuses.
const selectAwaitingConfirmation = prepare((db, p: { companyId: number; number: string; connectionId: number }) =>
  db
    .selectFrom('campaignShippings')
    .innerJoin('campaigns', 'campaigns.id', 'campaignShippings.campaignId')
    .select(['campaignShippings.id', 'campaignShippings.campaignId', 'campaignShippings.reason'])
    .where('campaignShippings.companyId', '=', p.companyId)
    .where('campaignShippings.number', '=', p.number)
    .where(sql<boolean>`campaign_shippings.status = 'confirmation'`)
    .where('campaigns.companyId', '=', p.companyId)
    .where('campaigns.whatsappId', '=', p.connectionId)
    .where(sql<boolean>`campaigns.status = 'EM_ANDAMENTO'`)
    .orderBy('campaignShippings.id', 'desc')
    .limit(1),
);

/** Answers true when the message was a yes or a no to a confirmation question (the caller skips the bot). */
export async function takeConfirmationReply(deps: AppDeps, connectionId: number, contact: { companyId: number; number: string }, ticket: TicketRow, body: string): Promise<boolean> {
  const waiting = (await selectAwaitingConfirmation(deps.db, { companyId: contact.companyId, number: contact.number, connectionId })).rows[0];
  if (!waiting) return false;
  const answer = parseConfirmationReply(body ?? '');
  const at = new Date().toISOString();
  const clarify = answer === 'other' && waiting.reason === null ? (await readCampaignSettings(deps.db, contact.companyId)).confirmationUnclearReply.trim() : '';
  await write(deps, async (tx) => {
    const s = tenant(tx.db, contact.companyId);
    const base = s.updateTable('campaignShippings').where('campaignShippings.id', '=', waiting.id).where('campaignShippings.status', '=', 'confirmation');
    if (answer === 'yes') await base.set({ status: 'confirmed', confirmation: 1, confirmedAt: at, reason: null, updatedAt: at }).execute();
    else if (answer === 'no') {
      await base.set({ status: 'declined', reason: 'declined', updatedAt: at }).execute();
      await finishCampaignIfDone(tx, contact.companyId, waiting.campaignId, new Date());
    } else {
      await base.set({ reason: `reply: ${(body ?? '').slice(0, 200)}`, updatedAt: at }).execute();
      if (clarify) await queueTicketMessage(tx, ticket, { body: clarify });
    }
    tx.effects.poke(contact.companyId);
  });
  return answer !== 'other' || clarify !== '';
}

/**
 * Confirmations unanswered for the settings' confirmationTimeoutHours become `declined` (reason
 * `no-answer`), so a confirmation campaign finishes. Crosses companies on purpose (the loop serves
 * every tenant); each company's rows through tenant(). Answers how many expired.
 */
export async function expireConfirmations(deps: AppDeps, now: Date): Promise<number> {
  const running = await deps.db
    .selectFrom('campaigns')
    .select(['campaigns.id', 'campaigns.companyId'])
    .where('campaigns.status', '=', 'EM_ANDAMENTO')
    .where('campaigns.confirmation', '=', 1)
    .execute();
  const byCompany = new Map<number, number[]>();
  for (const c of running) byCompany.set(c.companyId, [...(byCompany.get(c.companyId) ?? []), c.id]);
  let expired = 0;
  for (const [companyId, campaignIds] of byCompany) {
    const { confirmationTimeoutHours } = await readCampaignSettings(deps.db, companyId);
    if (confirmationTimeoutHours === 0) continue;
    const before = new Date(now.getTime() - confirmationTimeoutHours * 3_600_000).toISOString();
    const at = now.toISOString();
    // Read first: a pass with nothing expired writes nothing.
    const due = await tenant(deps.db, companyId)
      .selectFrom('campaignShippings')
      .select('campaignShippings.id')
      .where('campaignShippings.campaignId', 'in', campaignIds)
      .where('campaignShippings.status', '=', 'confirmation')
      .where('campaignShippings.confirmationRequestedAt', '<=', before)
      .executeTakeFirst();
    if (!due) continue;
    expired += await write(deps, async (tx) => {
      const rows = await tenant(tx.db, companyId)
        .updateTable('campaignShippings')
        .set({ status: 'declined', reason: 'no-answer', updatedAt: at })
        .where('campaignShippings.campaignId', 'in', campaignIds)
        .where('campaignShippings.status', '=', 'confirmation')
        .where('campaignShippings.confirmationRequestedAt', '<=', before)
        .returning('campaignShippings.campaignId')
        .execute();
      for (const id of new Set(rows.map((r) => r.campaignId))) await finishCampaignIfDone(tx, companyId, id, now);
      if (rows.length > 0) tx.effects.poke(companyId);
      return rows.length;
    });
  }
  return expired;
}
