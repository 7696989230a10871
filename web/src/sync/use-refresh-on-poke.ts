// What stays on paginated REST (contact lists, closed tickets, users, tags with their counts…)
// refreshes on poke (DESIGN §4): the server pokes a user after every change they may see. Pokes
// come in bursts on a busy company, so a view refreshes at most once per REFRESH_MS (or the interval
// it asks for), after the burst's first poke; a hidden page refreshes once it shows again.
import { useEffect, useRef } from 'react';
import { usePokeSubscription } from './SyncProvider.tsx';

export const REFRESH_MS = 1500;

/** `everyMs`: the least time between two refreshes (heavier reads, like the dashboard's, ask for more). */
export function useRefreshOnPoke(refresh: () => void, everyMs = REFRESH_MS): void {
  const subscribe = usePokeSubscription();
  // The newest callback, without resubscribing when it changes.
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  }, [refresh]);

  useEffect(() => {
    if (!subscribe) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let missed = false;
    const run = () => {
      timer = undefined;
      if (document.visibilityState === 'hidden') missed = true;
      else latest.current();
    };
    const onVisible = () => {
      if (document.visibilityState !== 'visible' || !missed) return;
      missed = false;
      latest.current();
    };
    const stop = subscribe(() => {
      timer ??= setTimeout(run, everyMs);
    });
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stop();
      if (timer) clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [subscribe, everyMs]);
}
