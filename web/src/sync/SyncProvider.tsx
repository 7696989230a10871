// The signed-in user's local-first state: one Replicache per user (IndexedDB), pulled on pokes from
// /sync/ws. Its `auth` event is how "the account was accessed on another computer" arrives
// (spec/01 §4), unless a refused request says it first: endSession toasts it, clears local storage
// and reloads after 1 s; the login page says it again. Every
// mutation the server refuses, wherever in the app it was fired, is toasted here once in the
// user's language (mutation-errors.ts).
// Reads that show presence wait for the socket's first try (useSocketSettled).
import { createContext, use, useEffect, useMemo, useState, type ReactNode } from 'react';
import { translateError } from '@zapdesk/sync';
import { createReplicache, type ZapReplicache } from '@zapdesk/sync/replicache';
import { api } from '../api/client.ts';
import { currentLanguage } from '../i18n/index.ts';
import { useSession, useUser } from '../session/SessionProvider.tsx';
import { toast } from '../ui/toast/store.ts';
import { watchMutationErrors } from './mutation-errors.ts';

const SyncContext = createContext<ZapReplicache | null>(null);
type PokeSubscribe = (listener: () => void) => () => void;
const PokeContext = createContext<PokeSubscribe | null>(null);
type EventSubscribe = (listener: (channel: string, data: unknown) => void) => () => void;
const EventContext = createContext<EventSubscribe | null>(null);
const SettledContext = createContext<Promise<void>>(Promise.resolve());

/**
 * How long a read waits for the socket's first try at most. The server answers `ready` within
 * milliseconds of the upgrade; a socket that hangs longer must not hold the page back.
 */
export const SOCKET_SETTLE_CAP_MS = 2000;

/** The Replicache of the signed-in user, or null while it opens. */
export function useReplicache(): ZapReplicache | null {
  return use(SyncContext);
}

/** Subscribes to the user's pokes (see SyncClient.onPoke), or null while the client opens. */
export function usePokeSubscription(): PokeSubscribe | null {
  return use(PokeContext);
}

/** Subscribes to the company's non-data events (`payment`), or null while the client opens. */
export function useEventSubscription(): EventSubscribe | null {
  return use(EventContext);
}

/**
 * Resolves once the sync socket's first try after sign-in (or a page load) has ended, or after
 * SOCKET_SETTLE_CAP_MS. The server marks the user online before it answers `ready`, so a REST read
 * that shows presence (the dashboard's attendants) made after this shows the user online from the
 * first render; if the socket failed, the read shows what the server says: offline.
 */
export function useSocketSettled(): Promise<void> {
  return use(SettledContext);
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export function SyncProvider({ children }: { children: ReactNode }) {
  const user = useUser();
  const { endSession } = useSession();
  const [rep, setRep] = useState<ZapReplicache | null>(null);
  const [subscribePokes, setSubscribePokes] = useState<PokeSubscribe | null>(null);
  const [subscribeEvents, setSubscribeEvents] = useState<EventSubscribe | null>(null);
  // Made while rendering, one per user and company: the children's first reads run in their
  // effects, before this provider's effect opens the client, and may already wait for it.
  const settled = useMemo(deferred, [user.id, user.companyId]);

  // Reopened when the company or the user changes (spec/01 §4), never without a token.
  useEffect(() => {
    if (!api.getToken()) return settled.resolve();
    const client = createReplicache({
      api,
      userId: user.id,
      companyId: user.companyId,
      // Only a login elsewhere is "accessed on another computer"; a logout, a new password or a
      // stolen refresh token end the session with a plainer message.
      onAuth: endSession,
    });
    const stopErrors = watchMutationErrors(client.rep, (error) => toast.error(translateError(error.code, currentLanguage())));
    setRep(client.rep);
    setSubscribePokes(() => client.onPoke);
    setSubscribeEvents(() => client.onEvent);
    // Only this client's try counts: StrictMode's first client is closed before it settles.
    let live = true;
    const cap = setTimeout(settled.resolve, SOCKET_SETTLE_CAP_MS);
    void (client.pokes?.settled() ?? Promise.resolve(false)).then(() => live && settled.resolve());
    return () => {
      live = false;
      clearTimeout(cap);
      stopErrors();
      setRep(null);
      setSubscribePokes(null);
      setSubscribeEvents(null);
      void client.close();
    };
  }, [user.id, user.companyId, endSession, settled]);

  return (
    <SyncContext value={rep}>
      <PokeContext value={subscribePokes}>
        <EventContext value={subscribeEvents}>
          <SettledContext value={settled.promise}>{children}</SettledContext>
        </EventContext>
      </PokeContext>
    </SyncContext>
  );
}
