// The campaign report (spec/03 §2 "Campaign report"): totals and the recipients page by page, each
// with its state. A sent recipient's state follows its message's ack (2 delivered, 3+ read), so the
// report moves as the phone reports. Progress is delivered (read included) over valid contacts:
// every recipient but the ones skipped as invalid numbers. Confirmation campaigns add the recipients
// awaiting an answer, the ones who said yes (whatever their message's state now) and the declined.
import { PAGE_SIZE, type CampaignReport, type CampaignShipping, type CampaignTotals, type ShippingState } from '@zapdesk/sync';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import { toCampaignDto } from './dto.ts';
import { getCampaignRow } from './service.ts';

const REPORT_PAGE = 5 * PAGE_SIZE;

function stateOf(status: string, ack: number | null): ShippingState {
  if (status === 'sent') return ack !== null && ack >= 3 ? 'read' : ack !== null && ack >= 2 ? 'delivered' : 'sent';
  return status as ShippingState;
}

export async function getCampaignReport(db: Database, companyId: number, id: number, pageNumber: number): Promise<CampaignReport> {
  const campaign = await getCampaignRow(db, companyId, id);
  const t = tenant(db, companyId);
  const groups = await t
    .selectFrom('campaignShippings')
    .leftJoin('messages', 'messages.id', 'campaignShippings.messageId')
    .select(['campaignShippings.status', 'campaignShippings.reason', 'messages.ack'])
    .select(sql<number>`case when campaign_shippings.confirmed_at is null then 0 else 1 end`.as('yes'))
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('campaignShippings.campaignId', '=', id)
    .groupBy(['campaignShippings.status', 'campaignShippings.reason', 'messages.ack', sql`case when campaign_shippings.confirmed_at is null then 0 else 1 end`])
    .execute();
  const totals: CampaignTotals = { recipients: 0, valid: 0, pending: 0, queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, awaitingConfirmation: 0, confirmed: 0, declined: 0, skippedInvalid: 0, skippedOptOut: 0, progress: 0 };
  for (const g of groups) {
    const n = Number(g.count);
    totals.recipients += n;
    const state = stateOf(g.status, g.ack);
    if (Number(g.yes) === 1) totals.confirmed += n;
    if (state === 'confirmation') totals.awaitingConfirmation += n;
    else if (state === 'declined') totals.declined += n;
    else if (state === 'confirmed') totals.pending += n;
    else if (state === 'skipped') {
      if (g.reason === 'invalid') totals.skippedInvalid += n;
      else totals.skippedOptOut += n;
    } else if (state === 'pending' || state === 'queued' || state === 'failed') totals[state] += n;
    else {
      totals.sent += n;
      if (state === 'delivered' || state === 'read') totals.delivered += n;
      if (state === 'read') totals.read += n;
    }
  }
  totals.valid = totals.recipients - totals.skippedInvalid;
  totals.progress = totals.valid === 0 ? 0 : totals.delivered / totals.valid;
  const rows = await t
    .selectFrom('campaignShippings')
    .leftJoin('messages', 'messages.id', 'campaignShippings.messageId')
    .select([
      'campaignShippings.id',
      'campaignShippings.number',
      'campaignShippings.name',
      'campaignShippings.status',
      'campaignShippings.reason',
      'campaignShippings.variant',
      'campaignShippings.message',
      'campaignShippings.deliveredAt',
      'messages.ack',
    ])
    .where('campaignShippings.campaignId', '=', id)
    .orderBy('campaignShippings.id')
    .limit(REPORT_PAGE + 1)
    .offset((pageNumber - 1) * REPORT_PAGE)
    .execute();
  const shipping: CampaignShipping[] = rows.slice(0, REPORT_PAGE).map((r) => ({
    id: r.id,
    number: r.number,
    name: r.name,
    state: stateOf(r.status, r.ack),
    reason: r.reason,
    variant: r.variant,
    message: r.message,
    deliveredAt: r.deliveredAt,
  }));
  return { campaign: await toCampaignDto(db, companyId, campaign), totals, shipping, hasMore: rows.length > REPORT_PAGE };
}
