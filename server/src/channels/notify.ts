// The one call site for sync pokes after a commit that changed synced rows (whatsapps, queues,
// queue_options). The sync engine adds `realtime` to AppDeps; until it lands this is a no-op, and
// when it does only this function changes.
import type { AppDeps } from '../context.ts';

type Realtime = { pokeCompany?(companyId: number): void };

export function notifySyncedChange(deps: AppDeps, companyId: number): void {
  const realtime = (deps as AppDeps & { realtime?: Realtime }).realtime;
  try {
    realtime?.pokeCompany?.(companyId);
  } catch (err) {
    // A failed poke only delays clients until their next pull; the write already committed.
    deps.log.warn('poke failed', { companyId, error: String(err) });
  }
}
