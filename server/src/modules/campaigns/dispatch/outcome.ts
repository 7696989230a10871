// How a campaign's recipients end. The outbox tells the origin `campaign:<shippingId>` how the
// recipient's message ended, in the same short transaction that records it (outbound/outcomes.ts):
// sent → `sent` with deliveredAt (the network accepted it), failed → `failed` with the catalogue
// code. A campaign whose every recipient is sent, failed or skipped becomes FINALIZADA.
import { sql } from 'kysely';
import { change, emit } from '../../../events/emit.ts';
import { prepare } from '../../../db/prepared.ts';
import { tenant } from '../../../db/tenant.ts';
import type { Tx } from '../../../db/write.ts';

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
  if (row) await finishCampaignIfDone(tx, companyId, row.campaignId, new Date());
}

// Run for every message a campaign sends: compiled once (db/prepared.ts).
const markAllDelivered = prepare((db, p: { companyId: number; ids: number[]; now: string }) =>
  db
    .updateTable('campaignShippings')
    .set({ status: 'sent', deliveredAt: p.now, updatedAt: p.now })
    .where('campaignShippings.companyId', '=', p.companyId)
    .where('campaignShippings.id', 'in', p.ids)
    .where('campaignShippings.status', '=', 'queued')
    .returning('campaignShippings.campaignId'),
);
const markFailed = prepare((db, p: { companyId: number; id: number; code: string; now: string }) =>
  db
    .updateTable('campaignShippings')
    .set({ status: 'failed', reason: p.code, error: p.code, updatedAt: p.now })
    .where('campaignShippings.companyId', '=', p.companyId)
    .where('campaignShippings.id', '=', p.id)
    .where('campaignShippings.status', '=', 'queued')
    .returning('campaignShippings.campaignId'),
);
const finishIfDone = prepare((db, p: { companyId: number; campaignId: number; now: string }) =>
  db
    .updateTable('campaigns')
    .set((eb) => ({ status: 'FINALIZADA', completedAt: p.now, updatedAt: p.now, version: eb('campaigns.version', '+', 1) }))
    .where('campaigns.companyId', '=', p.companyId)
    .where('campaigns.id', '=', p.campaignId)
    .where('campaigns.status', '=', 'EM_ANDAMENTO')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('campaignShippings')
            .select(sql<number>`1`.as('one'))
            .where('campaignShippings.companyId', '=', p.companyId)
            .where('campaignShippings.campaignId', '=', p.campaignId)
            .where('campaignShippings.status', 'in', OPEN_STATES),
        ),
      ),
    ),
);

export async function recordCampaignOutcome(tx: Tx, companyId: number, shippingId: number, outcome: { status: 'sent' } | { status: 'failed'; code: string }): Promise<void> {
  const now = new Date().toISOString();
  const res = outcome.status === 'sent' ? await markAllDelivered(tx.db, { companyId, ids: [shippingId], now }) : await markFailed(tx.db, { companyId, id: shippingId, code: outcome.code, now });
  const row = res.rows[0];
  if (row) await finishCampaignIfDone(tx, companyId, row.campaignId, new Date());
}

/** Several recipients' messages sent (one record of the outbox): as recordCampaignOutcome for each, in one statement. */
export async function recordCampaignsSent(tx: Tx, companyId: number, shippingIds: number[]): Promise<void> {
  const now = new Date().toISOString();
  const { rows } = await markAllDelivered(tx.db, { companyId, ids: shippingIds, now });
  for (const campaignId of new Set(rows.map((r) => r.campaignId))) await finishCampaignIfDone(tx, companyId, campaignId, new Date(now));
}

/** EM_ANDAMENTO → FINALIZADA once no recipient is open (OPEN_STATES); answers whether it finished now. */
export async function finishCampaignIfDone(tx: Tx, companyId: number, campaignId: number, now: Date): Promise<boolean> {
  const res = await finishIfDone(tx.db, { companyId, campaignId, now: now.toISOString() });
  const finished = Number(res.numAffectedRows ?? 0) > 0;
  if (finished) await emit(tx, change(companyId, 'campaign', 'update', campaignId, { hooks: ['campaign.finished'] }));
  return finished;
}
