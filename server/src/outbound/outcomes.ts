// Who hears how a queued message ended. An outbox row may name its origin (`schedule:12`); when the
// message is sent or fails for good, the origin's handler runs in the same short transaction that
// records the outcome, so the two never disagree.
import type { Tx } from '../db/write.ts';
import { groupBy } from '../inbound/resolve.ts';
import { recordScheduleOutcome } from '../jobs/schedule-delivery.ts';
import { recordCampaignOutcome, recordCampaignsSent, recordConfirmationOutcome } from '../modules/campaigns/dispatch/outcome.ts';

export type SendOutcome = { status: 'sent' } | { status: 'failed'; code: string };

type OutcomeHandler = (tx: Tx, companyId: number, id: number, outcome: SendOutcome) => Promise<void>;

const HANDLERS: Record<string, OutcomeHandler> = {
  schedule: recordScheduleOutcome,
  campaign: recordCampaignOutcome,
  'campaign-confirm': recordConfirmationOutcome,
};

/** Handlers that take the `sent` outcomes of several rows at once (a campaign's batch of sends). */
const SENT_BATCH_HANDLERS: Record<string, (tx: Tx, companyId: number, ids: number[]) => Promise<void>> = {
  campaign: recordCampaignsSent,
};

function parse(origin: string | null): { kind: string; id: number } | undefined {
  if (!origin) return undefined;
  const [kind, id] = origin.split(':');
  return kind && HANDLERS[kind] && Number.isInteger(Number(id)) ? { kind, id: Number(id) } : undefined;
}

/** `schedule:12` → the schedules handler for row 12; an unknown or malformed origin is ignored. */
export async function tellOrigin(tx: Tx, companyId: number, origin: string | null, outcome: SendOutcome): Promise<void> {
  const parsed = parse(origin);
  if (parsed) await HANDLERS[parsed.kind]!(tx, companyId, parsed.id, outcome);
}

/** Several rows sent, told as tellOrigin tells each (in order within a kind); a kind that can takes its rows at once. */
export async function tellOriginsSent(tx: Tx, companyId: number, origins: (string | null)[]): Promise<void> {
  const parsed = origins.map(parse).filter((p) => p !== undefined);
  for (const [kind, rows] of groupBy(parsed, (p) => p.kind)) {
    const ids = rows.map((r) => r.id);
    const batch = SENT_BATCH_HANDLERS[kind];
    if (batch) await batch(tx, companyId, ids);
    else for (const id of ids) await HANDLERS[kind]!(tx, companyId, id, { status: 'sent' });
  }
}
