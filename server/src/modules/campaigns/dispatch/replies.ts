// A contact's reply to a confirmation campaign (DESIGN §13). The inbound pipeline reads, with every
// batch of messages it stores, which senders a running campaign asked to confirm
// (findAwaitingConfirmations), and hands each such message here before its automation chain. An
// explicit yes (CAMPAIGN_YES_WORDS, sync/src/domain/campaign.ts) makes the
// recipient `confirmed`, and the dispatcher then sends the real message under the connection's
// pacing; an explicit no (CAMPAIGN_NO_WORDS, opt-out words included) makes it `declined`; anything
// else is recorded as the recipient's reason (`reply: …`) and it keeps waiting. A yes or a no is
// consumed (the bot does not answer it). The first unclear answer gets the settings'
// confirmationUnclearReply (through the outbox) and is consumed too; a later one goes the normal
// way (the bot, the agents), so an auto-responder never starts a loop with us.
import { parseConfirmationReply } from '@zapdesk/sync';
import { sql } from 'kysely';
import type { AppDeps } from '../../../context.ts';
import type { Database } from '../../../db/database.ts';
import { prepare } from '../../../db/prepared.ts';
import { tenant } from '../../../db/tenant.ts';
import { inSlices } from '../../../db/slices.ts';
import { write, type Tx } from '../../../db/write.ts';
import { queueTicketMessage } from '../../messages/send.ts';
import type { TicketRow } from '../../tickets/dto.ts';
import { readCampaignSettings } from '../settings.ts';
import { finishCampaignIfDone } from './outcome.ts';

/** A recipient waiting to answer a confirmation question: its shipping row. */
export type AwaitingConfirmation = { id: number; campaignId: number; reason: string | null };

// Asked for every batch of inbound messages: compiled once (../../../db/prepared.ts). Literal status.
const selectRunningCampaigns = prepare((db, p: { companyId: number }) =>
  db
    .selectFrom('campaigns')
    .select(['campaigns.id', 'campaigns.whatsappId'])
    .where('campaigns.companyId', '=', p.companyId)
    .where(sql<boolean>`campaigns.status = 'EM_ANDAMENTO'`),
);

/**
 * The recipients among these (number, connection) pairs that a running campaign of the company
 * asked to confirm, by `${connectionId}:${number}` (the newest shipping when several). The inbound
 * pipeline reads them for a whole batch of messages in its transaction: one keyed read of the
 * company's running campaigns, and the shippings only when there are any.
 */
export async function findAwaitingConfirmations(db: Database, companyId: number, asked: { number: string; connectionId: number }[]): Promise<Map<string, AwaitingConfirmation>> {
  const found = new Map<string, AwaitingConfirmation>();
  if (asked.length === 0) return found;
  const running = (await selectRunningCampaigns(db, { companyId })).rows;
  if (running.length === 0) return found;
  const connectionOf = new Map(running.map((c) => [c.id, c.whatsappId]));
  const rows = await tenant(db, companyId)
    .selectFrom('campaignShippings')
    .select(['campaignShippings.id', 'campaignShippings.campaignId', 'campaignShippings.reason', 'campaignShippings.number'])
    .where('campaignShippings.number', 'in', [...new Set(asked.map((a) => a.number))])
    .where(sql<boolean>`campaign_shippings.status = 'confirmation'`)
    .where('campaignShippings.campaignId', 'in', [...connectionOf.keys()])
    .orderBy('campaignShippings.id', 'desc')
    .execute();
  const wanted = new Set(asked.map((a) => `${a.connectionId}:${a.number}`));
  for (const row of rows) {
    const key = `${connectionOf.get(row.campaignId)}:${row.number}`;
    if (wanted.has(key) && !found.has(key)) found.set(key, { id: row.id, campaignId: row.campaignId, reason: row.reason });
  }
  return found;
}

/**
 * `waiting`: the contact's confirmation question, read with the message (findAwaitingConfirmations).
 * Answers true when the message was a yes or a no to it (the caller skips the bot).
 */
export async function takeConfirmationReply(deps: AppDeps, waiting: AwaitingConfirmation | undefined, contact: { companyId: number }, ticket: TicketRow, body: string): Promise<boolean> {
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
 * every tenant); each company's rows through tenant(), a slice per write (expireConfirmationsSlice).
 * Answers how many expired.
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
    // Read first: a pass with nothing expired writes nothing.
    if (!(await dueConfirmations(deps.db, companyId, campaignIds, before).executeTakeFirst())) continue;
    await inSlices(deps, async (tx, limit) => {
      const n = await expireConfirmationsSlice(tx, companyId, campaignIds, before, now, limit);
      expired += n;
      return n;
    });
  }
  return expired;
}

const dueConfirmations = (db: Database, companyId: number, campaignIds: number[], before: string) =>
  tenant(db, companyId)
    .selectFrom('campaignShippings')
    .select('campaignShippings.id')
    .where('campaignShippings.campaignId', 'in', campaignIds)
    .where('campaignShippings.status', '=', 'confirmation')
    .where('campaignShippings.confirmationRequestedAt', '<=', before);

/**
 * One slice of the expiry (db/slices.ts): up to `limit` of the company's confirmations asked before
 * `before` declined, and the campaigns left with nothing open finished; answers how many. They come
 * due by the thousand after a long pause or a shorter timeout: 50,000 in one write held SQLite's
 * writer 0.21 s (this session's audit).
 */
export async function expireConfirmationsSlice(tx: Tx, companyId: number, campaignIds: number[], before: string, now: Date, limit: number): Promise<number> {
  // The ids first (db/slices.ts says why).
  const ids = (await dueConfirmations(tx.db, companyId, campaignIds, before).limit(limit).execute()).map((r) => r.id);
  if (ids.length === 0) return 0;
  const rows = await tenant(tx.db, companyId)
    .updateTable('campaignShippings')
    .set({ status: 'declined', reason: 'no-answer', updatedAt: now.toISOString() })
    .where('campaignShippings.id', 'in', ids)
    .returning('campaignShippings.campaignId')
    .execute();
  for (const id of new Set(rows.map((r) => r.campaignId))) await finishCampaignIfDone(tx, companyId, id, now);
  tx.effects.poke(companyId);
  return ids.length;
}
