// The one call site for announcing ticket, message and contact changes after a commit. A poke
// carries no data (clients pull), so the whole company is poked: who sees which ticket is decided by
// the view at pull time, and a user outside it pulls "no change" cheaply.
import type { AppDeps } from '../../context.ts';

type Poker = { pokeCompany?(companyId: number): void };

export function announceTicketChange(deps: AppDeps, companyId: number): void {
  const realtime = (deps as AppDeps & { realtime?: Poker }).realtime;
  try {
    realtime?.pokeCompany?.(companyId);
  } catch (err) {
    // A lost poke only delays clients until their next pull; the write already committed.
    deps.log.warn('poke failed', { companyId, error: String(err) });
  }
}
