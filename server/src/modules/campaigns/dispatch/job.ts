// The campaign dispatch loop (DESIGN §6, §13). Each pass: start the PROGRAMADA campaigns whose time
// has come (EM_ANDAMENTO, recipients written once), then, for every connection with a running
// campaign that is CONNECTED here (the outbox's channel: on PostgreSQL only the instance holding the
// connection's lease has it), claim sends while the connection's pacing allows (claim.ts), then
// finish the campaigns with nothing left. It sleeps until the earliest moment a connection may send
// again, at most `tickMs`. A connection that is down claims nothing, so its budget is not spent on
// messages that would only pile up and leave in a burst when it comes back.
//
// The start and the finish cross companies on purpose (one loop serves every tenant); each row is
// then handled through tenant(db, row.companyId).
import type { AppDeps } from '../../../context.ts';
import { write } from '../../../db/write.ts';
import { tenant } from '../../../db/tenant.ts';
import { bumpVersion } from '../../../sync/version.ts';
import { claimNextShipping } from './claim.ts';
import { finishCampaignIfDone, OPEN_STATES } from './outcome.ts';
import { materializeShipping } from './recipients.ts';

export type CampaignPassOptions = { now?: () => Date; random?: () => number; maxPerConnection?: number };
export type CampaignPassResult = { started: number; sent: number; skipped: number; finished: number; wakeInMs: number | null };

/** PROGRAMADA → EM_ANDAMENTO for the campaigns due, each with its recipients in the same write. */
export async function startDueCampaigns(deps: AppDeps, now: Date): Promise<number> {
  const due = await deps.db
    .selectFrom('campaigns')
    .select(['campaigns.id', 'campaigns.companyId'])
    .where('campaigns.status', '=', 'PROGRAMADA')
    .where('campaigns.scheduledAt', '<=', now.toISOString())
    .orderBy('campaigns.scheduledAt')
    .execute();
  let started = 0;
  for (const c of due) {
    const ok = await write(deps, async (tx) => {
      const row = await tenant(tx.db, c.companyId)
        .updateTable('campaigns')
        .set({ status: 'EM_ANDAMENTO', ...bumpVersion() })
        .where('campaigns.id', '=', c.id)
        .where('campaigns.status', '=', 'PROGRAMADA')
        .returningAll()
        .executeTakeFirst();
      if (!row) return false;
      await materializeShipping(tx, row, now);
      tx.effects.poke(c.companyId);
      return true;
    });
    if (ok) started++;
  }
  return started;
}

/** One pass over every running campaign. */
export async function runCampaignPass(deps: AppDeps, opts: CampaignPassOptions = {}): Promise<CampaignPassResult> {
  const clock = opts.now ?? (() => new Date());
  const result: CampaignPassResult = { started: await startDueCampaigns(deps, clock()), sent: 0, skipped: 0, finished: 0, wakeInMs: null };
  const wakeAt = (ms: number) => void (result.wakeInMs = result.wakeInMs === null ? ms : Math.min(result.wakeInMs, ms));
  const connections = await deps.db
    .selectFrom('campaigns')
    .select('campaigns.whatsappId')
    .distinct()
    .where('campaigns.status', '=', 'EM_ANDAMENTO')
    .where('campaigns.whatsappId', 'is not', null)
    .execute();
  const max = opts.maxPerConnection ?? 200;
  for (const { whatsappId } of connections) {
    if (whatsappId === null || !deps.outbox.channel(whatsappId)) continue;
    for (let i = 0; i < max; i++) {
      const now = clock();
      const claim = await claimNextShipping(deps, whatsappId, { now, random: opts.random });
      if (claim.kind === 'sent') result.sent++;
      else if (claim.kind === 'skipped') result.skipped++;
      else {
        if (claim.kind === 'wait') wakeAt(Math.max(0, claim.until.getTime() - now.getTime()));
        break;
      }
      if (i === max - 1) wakeAt(0);
    }
  }
  // Read first: a write only for the campaigns with nothing left (an idle pass writes nothing).
  const done = await deps.db
    .selectFrom('campaigns')
    .select(['campaigns.id', 'campaigns.companyId'])
    .where('campaigns.status', '=', 'EM_ANDAMENTO')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('campaignShippings')
            .select('campaignShippings.id')
            .whereRef('campaignShippings.campaignId', '=', 'campaigns.id')
            .whereRef('campaignShippings.companyId', '=', 'campaigns.companyId')
            .where('campaignShippings.status', 'in', OPEN_STATES),
        ),
      ),
    )
    .execute();
  for (const c of done) {
    const finished = await write(deps, async (tx) => {
      const done = await finishCampaignIfDone(tx.db, c.companyId, c.id, clock());
      if (done) tx.effects.poke(c.companyId);
      return done;
    });
    if (finished) result.finished++;
  }
  return result;
}

export type CampaignDispatch = { stop(): Promise<void>; wake(): void };

/** Runs passes until stopped: right away when there is more to send, else at the next due moment or after `tickMs`. */
export function startCampaignDispatch(deps: AppDeps, opts: CampaignPassOptions & { tickMs?: number } = {}): CampaignDispatch {
  const tickMs = opts.tickMs ?? 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void (running = pass()), ms);
  };
  async function pass() {
    let next = tickMs;
    try {
      const r = await runCampaignPass(deps, opts);
      if (r.wakeInMs !== null) next = Math.min(tickMs, r.wakeInMs);
    } catch (err) {
      deps.log.error('campaign pass failed', { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    }
    running = undefined;
    schedule(next);
  }
  schedule(0);
  return {
    wake: () => {
      if (!running) schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
