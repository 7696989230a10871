// The presence job (DESIGN §7, "offline marking"): every minute, users still marked online whose
// last_seen_at is older than PRESENCE_STALE_MS go offline. Live sockets refresh last_seen_at on the
// heartbeat (realtime/presence.ts), so only the users of an instance that died without closing its
// sockets (or never touched, rows from before presence) are stale.
//
// The look-up crosses companies (one job serves every tenant); each company's users are then marked
// through tenant(), with the staleness checked again on the row, so a user whose socket touched
// meanwhile (on any instance) stays online, and two instances running the job change a row once.
import type { AppDeps } from '../context.ts';
import { write } from '../db/write.ts';
import { markUsersOffline, PRESENCE_STALE_MS } from '../realtime/presence.ts';
import { startCronJob, type RunningJob } from './runner.ts';

export const PRESENCE_CRON = '* * * * *';
const BATCH = 1_000;

/** Marks offline the online users not seen for `staleAfterMs`; returns how many per company. */
export async function markStaleUsersOffline(deps: AppDeps, now: Date = new Date(), staleAfterMs = PRESENCE_STALE_MS): Promise<Map<number, number>> {
  const cutoff = new Date(now.getTime() - staleAfterMs).toISOString();
  const stale = await deps.db
    .selectFrom('users')
    .select(['users.companyId', 'users.id'])
    .where('users.online', '=', 1)
    .where((eb) => eb.or([eb('users.lastSeenAt', 'is', null), eb('users.lastSeenAt', '<', cutoff)]))
    .limit(BATCH)
    .execute();
  const byCompany = new Map<number, number[]>();
  for (const u of stale) byCompany.set(u.companyId, [...(byCompany.get(u.companyId) ?? []), u.id]);
  const marked = new Map<number, number>();
  for (const [companyId, userIds] of byCompany) {
    // `seenUntil` just before the cutoff: the same staleness as the look-up, re-read on the row.
    // One write per company: its users flip (and its clients are poked) together, after the commit.
    const ids = await write(deps, (tx) => markUsersOffline(tx, companyId, userIds, new Date(Date.parse(cutoff) - 1).toISOString()));
    if (ids.length) marked.set(companyId, ids.length);
  }
  return marked;
}

export function startPresenceJob(deps: AppDeps): RunningJob {
  return startCronJob({ name: 'presence', cron: PRESENCE_CRON, log: deps.log, run: () => markStaleUsersOffline(deps) });
}
