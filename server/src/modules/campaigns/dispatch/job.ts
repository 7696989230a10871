// The campaign dispatch loop (DESIGN §6, §13). Each pass: start the PROGRAMADA campaigns whose time
// has come (EM_ANDAMENTO, recipients written once), then, for every connection with a running
// campaign that is CONNECTED here (the outbox's channel: on PostgreSQL only the instance holding the
// connection's lease has it), claim sends while the connection's pacing allows (claim.ts), then
// finish the campaigns with nothing left. It sleeps until the earliest moment a connection may send
// again, at most `tickMs`. A connection that is down claims nothing, so its budget is not spent on
// messages that would only pile up and leave in a burst when it comes back. A company the
// super-admin deactivated starts and sends nothing: its campaigns wait, as they stand, until it is
// active again.
//
// The start and the finish cross companies on purpose (one loop serves every tenant); each row is
// then handled through tenant(db, row.companyId).
import { change, emit } from '../../../events/emit.ts';
import type { AppDeps } from '../../../context.ts';
import { backgroundTurn } from '../../../jobs/turns.ts';
import { write } from '../../../db/write.ts';
import { prepare } from '../../../db/prepared.ts';
import { tenant } from '../../../db/tenant.ts';
import { bumpVersion } from '../../../sync/version.ts';
import { BATCH, claimShippings } from './claim.ts';
import { finishCampaignIfDone, OPEN_STATES } from './outcome.ts';
import { materializeInSlices, materializeShipping } from './recipients.ts';
import { expireConfirmations } from './replies.ts';

/**
 * Messages of one connection waiting in the outbox (a campaign's, and any other) above which its
 * campaigns claim no more: a pause stops a campaign within a moment, and an agent's reply waits
 * behind at most this many.
 */
const OUTBOX_BACKLOG = 2 * BATCH;
const BACKLOG_POLL_MS = 50;

// Read from the (company, connection, state, id) index alone, before every claim (db/prepared.ts).
const countQueued = prepare((db, p: { companyId: number; connectionId: number }) =>
  db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('outbox.companyId', '=', p.companyId).where('outbox.whatsappId', '=', p.connectionId),
);
const queuedOn = async (deps: AppDeps, companyId: number, connectionId: number) => Number((await countQueued(deps.db, { companyId, connectionId })).rows[0]?.n ?? 0);

export type CampaignPassOptions = { now?: () => Date; random?: () => number; maxPerConnection?: number };
export type CampaignPassResult = { started: number; sent: number; skipped: number; finished: number; wakeInMs: number | null };

/**
 * PROGRAMADA → EM_ANDAMENTO for the campaigns due: each one's recipients written a slice per write
 * first (materializeInSlices), then the starting write adds those that came meanwhile.
 */
export async function startDueCampaigns(deps: AppDeps, now: Date): Promise<number> {
  const due = await deps.db
    .selectFrom('campaigns')
    .innerJoin('companies', 'companies.id', 'campaigns.companyId')
    .select(['campaigns.id', 'campaigns.companyId'])
    .where('campaigns.status', '=', 'PROGRAMADA')
    .where('companies.status', '=', 1)
    .where('campaigns.scheduledAt', '<=', now.toISOString())
    .where('campaigns.deletingSince', 'is', null)
    .orderBy('campaigns.scheduledAt')
    .execute();
  let started = 0;
  for (const c of due) {
    const cursor = await materializeInSlices(deps, c.companyId, c.id, 'PROGRAMADA', now);
    const ok = await write(deps, async (tx) => {
      const row = await tenant(tx.db, c.companyId)
        .updateTable('campaigns')
        .set({ status: 'EM_ANDAMENTO', ...bumpVersion() })
        .where('campaigns.id', '=', c.id)
        .where('campaigns.status', '=', 'PROGRAMADA')
        .where('campaigns.deletingSince', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (!row) return false;
      await materializeShipping(tx, row, now, cursor);
      tx.effects.poke(c.companyId);
      await emit(tx, change(c.companyId, 'campaign', 'update', c.id));
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
  await expireConfirmations(deps, clock());
  const wakeAt = (ms: number) => void (result.wakeInMs = result.wakeInMs === null ? ms : Math.min(result.wakeInMs, ms));
  const connections = await deps.db
    .selectFrom('campaigns')
    .innerJoin('companies', 'companies.id', 'campaigns.companyId')
    .select(['campaigns.whatsappId', 'campaigns.companyId'])
    .distinct()
    .where('campaigns.status', '=', 'EM_ANDAMENTO')
    .where('companies.status', '=', 1)
    .where('campaigns.whatsappId', 'is not', null)
    .execute();
  const max = opts.maxPerConnection ?? 1_000;
  // Connections claim side by side: on SQLite their writes then share group commits.
  await Promise.all(
    connections.map(async ({ whatsappId, companyId }) => {
      if (whatsappId === null || !deps.outbox.channel(whatsappId)) return;
      for (let done = 0; done < max; ) {
        // The outbox holds at most a few batches of the connection's messages (OUTBOX_BACKLOG).
        if ((await queuedOn(deps, companyId, whatsappId)) >= OUTBOX_BACKLOG) return wakeAt(BACKLOG_POLL_MS);
        // A turn of the event loop between claims, within its background budget: requests are
        // answered while a campaign runs.
        await backgroundTurn();
        const now = clock();
        const claim = await claimShippings(deps, companyId, whatsappId, { now, random: opts.random, max: max - done });
        result.sent += claim.sent;
        result.skipped += claim.skipped;
        done += claim.sent + claim.skipped;
        if (claim.next.kind === 'wait') return wakeAt(Math.max(0, claim.next.until.getTime() - now.getTime()));
        if (claim.next.kind === 'idle') return;
      }
      wakeAt(0);
    }),
  );
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
      const done = await finishCampaignIfDone(tx, c.companyId, c.id, clock());
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
