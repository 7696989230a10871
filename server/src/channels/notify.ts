// The one call site for sync pokes after a commit that changed synced rows (whatsapps, queues,
// queue_options): every user of the company pulls, and the view decides what each may see.
import type { AppDeps } from '../context.ts';

export function notifySyncedChange(deps: Pick<AppDeps, 'realtime' | 'log'>, companyId: number): void {
  try {
    deps.realtime.pokeCompany(companyId);
  } catch (err) {
    // A failed poke only delays clients until their next pull; the write already committed.
    deps.log.warn('poke failed', { companyId, error: String(err) });
  }
}
