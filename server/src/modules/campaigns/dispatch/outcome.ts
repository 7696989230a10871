// How a campaign's recipients end. The outbox tells the origin `campaign:<shippingId>` how the
// recipient's message ended, in the same short transaction that records it (outbound/outcomes.ts):
// sent → `sent` with deliveredAt (the network accepted it), failed → `failed` with the catalogue
// code. A campaign whose every recipient is sent, failed or skipped becomes FINALIZADA.
import { sql } from 'kysely';
import type { Database } from '../../../db/database.ts';
import { tenant } from '../../../db/tenant.ts';
import type { Tx } from '../../../db/write.ts';
import { bumpVersion } from '../../../sync/version.ts';

/** A recipient in one of these is not done: a campaign waiting for confirmations is not finished. */
export const OPEN_STATES = ['pending', 'queued', 'confirmation', 'confirmed'];

/** The confirmation question failed for good: the recipient fails with its code. */
export async function recordConfirmationOutcome(tx: Tx, companyId: number, shippingId: number, outcome: { status: 'sent' } | { status: 'failed'; code: string }): Promise<void> {
  if (outcome.status !== 'failed') return;
  const now = new Date().toISOString();
  const row = await tenant(tx.db, companyId)
    .updateTable('campaignShippings')
    .set({ status: 'failed', reason: outcome.code, error: outcome.code, updatedAt: now })
    .where('campaignShippings.id', '=', shippingId)
    .where('campaignShippings.status', '=', 'confirmation')
    .returning('campaignShippings.campaignId')
    .executeTakeFirst();
  if (row) await finishCampaignIfDone(tx.db, companyId, row.campaignId, new Date());
}

export async function recordCampaignOutcome(tx: Tx, companyId: number, shippingId: number, outcome: { status: 'sent' } | { status: 'failed'; code: string }): Promise<void> {
  const now = new Date().toISOString();
  const row = await tenant(tx.db, companyId)
    .updateTable('campaignShippings')
    .set(outcome.status === 'sent' ? { status: 'sent', deliveredAt: now, updatedAt: now } : { status: 'failed', reason: outcome.code, error: outcome.code, updatedAt: now })
    .where('campaignShippings.id', '=', shippingId)
    .where('campaignShippings.status', '=', 'queued')
    .returning('campaignShippings.campaignId')
    .executeTakeFirst();
  if (row) await finishCampaignIfDone(tx.db, companyId, row.campaignId, new Date());
}

/** EM_ANDAMENTO → FINALIZADA once no recipient is open (OPEN_STATES); answers whether it finished now. */
export async function finishCampaignIfDone(db: Database, companyId: number, campaignId: number, now: Date): Promise<boolean> {
  const t = tenant(db, companyId);
  const open = t
    .selectFrom('campaignShippings')
    .select(sql<number>`1`.as('one'))
    .where('campaignShippings.campaignId', '=', campaignId)
    .where('campaignShippings.status', 'in', OPEN_STATES);
  const res = await t
    .updateTable('campaigns')
    .set({ status: 'FINALIZADA', completedAt: now.toISOString(), ...bumpVersion() })
    .where('campaigns.id', '=', campaignId)
    .where('campaigns.status', '=', 'EM_ANDAMENTO')
    .where((eb) => eb.not(eb.exists(open)))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
