// The tickets screen's reads: synced rows under any key prefix (one ticket's messages), a ticket by
// uuid (synced first, REST for closed or unsynced ones), and media files fetched with the session's
// token (an <img src> cannot send it). Refused mutations are toasted app-wide by the SyncProvider.
import { useCallback, useEffect, useState } from 'react';
import type { Message, Ticket } from '@zapdesk/sync';
import { api, AppError } from '../../api/client.ts';
import { apiBaseUrl } from '../../api/config.ts';
import { useReplicache } from '../../sync/SyncProvider.tsx';
import { useRefreshOnPoke } from '../../sync/use-refresh-on-poke.ts';

const noop = () => {};

/** Every value under a key prefix, re-read when a pull or a local mutation changes them. */
export function useSyncedScan<T>(prefix: string | null): T[] | undefined {
  const rep = useReplicache();
  const [rows, setRows] = useState<T[] | undefined>(undefined);
  useEffect(() => {
    setRows(undefined);
    if (!rep || prefix === null) return;
    return rep.subscribe((tx) => tx.scan({ prefix }).values().toArray() as Promise<T[]>, { onData: setRows });
  }, [rep, prefix]);
  return rows;
}

export const useTicketMessages = (ticketId: number | null) => useSyncedScan<Message>(ticketId === null ? null : `message/${ticketId}/`);

export type TicketLookup = { ticket: Ticket | undefined; synced: boolean; missing: unknown };

/**
 * The ticket of /tickets/{uuid}: the synced row while the user's view holds it (open and pending
 * tickets), otherwise GET /tickets/u/{uuid}, read again after pokes; `missing` is the REST refusal
 * (not found, not allowed).
 */
export function useTicketByUuid(uuid: string | undefined, tickets: Ticket[] | undefined): TicketLookup {
  const synced = uuid ? tickets?.find((t) => t.uuid === uuid) : undefined;
  const [fetched, setFetched] = useState<{ uuid: string; ticket?: Ticket; error?: unknown } | null>(null);
  const needRest = Boolean(uuid && tickets && !synced);
  // Read again after pokes, so another user's change (a reopen, a new name, a tag) shows here too.
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((n) => n + 1), []);
  useRefreshOnPoke(needRest ? refresh : noop);
  useEffect(() => {
    if (!needRest || !uuid) return;
    let live = true;
    api.get<Ticket>(`/tickets/u/${uuid}`).then(
      (ticket) => live && setFetched({ uuid, ticket }),
      // A refresh that did not reach the server keeps what is shown; a refusal (gone, not allowed) counts.
      (error: unknown) => live && setFetched((prev) => (prev?.uuid === uuid && !(error instanceof AppError) ? prev : { uuid, error })),
    );
    return () => {
      live = false;
    };
  }, [needRest, uuid, tick]);
  if (synced) return { ticket: synced, synced: true, missing: null };
  const rest = fetched?.uuid === uuid ? fetched : null;
  return { ticket: rest?.ticket, synced: false, missing: rest?.error ?? null };
}

/** An object URL of a media file served behind the session's token; revoked on unmount. */
export function useMediaSrc(url: string | null): string | undefined {
  const [src, setSrc] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (!url) return;
    let live = true;
    let objectUrl: string | undefined;
    const absolute = /^(https?:|blob:|data:)/.test(url) ? url : `${apiBaseUrl()}${url}`;
    fetch(absolute, { headers: { authorization: `Bearer ${api.getToken() ?? ''}` } })
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(String(r.status)))))
      .then((blob) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(blob);
        setSrc(objectUrl);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return src;
}
