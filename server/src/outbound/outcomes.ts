// Who hears how a queued message ended. An outbox row may name its origin (`schedule:12`); when the
// message is sent or fails for good, the origin's handler runs in the same short transaction that
// records the outcome, so the two never disagree.
import type { Tx } from '../db/write.ts';
import { recordScheduleOutcome } from '../jobs/schedule-delivery.ts';
import { recordCampaignOutcome, recordConfirmationOutcome } from '../modules/campaigns/dispatch/outcome.ts';

export type SendOutcome = { status: 'sent' } | { status: 'failed'; code: string };

type OutcomeHandler = (tx: Tx, companyId: number, id: number, outcome: SendOutcome) => Promise<void>;

const HANDLERS: Record<string, OutcomeHandler> = {
  schedule: recordScheduleOutcome,
  campaign: recordCampaignOutcome,
  'campaign-confirm': recordConfirmationOutcome,
};

/** `schedule:12` → the schedules handler for row 12; an unknown or malformed origin is ignored. */
export async function tellOrigin(tx: Tx, companyId: number, origin: string | null, outcome: SendOutcome): Promise<void> {
  if (!origin) return;
  const [kind, id] = origin.split(':');
  const handler = kind ? HANDLERS[kind] : undefined;
  if (handler && Number.isInteger(Number(id))) await handler(tx, companyId, Number(id), outcome);
}
