// The ticket whose chat its holder has in front of them right now (the chat shown and the page
// visible): what arrives there is read as it arrives. The list's unread badge and the top bar's
// bell leave that ticket out (so neither flashes before the server's count catches up), and the
// chat asks the server to count it read (the markTicketRead mutator). A hidden tab reads nothing.
import { useEffect, useSyncExternalStore } from 'react';

let reading: number | null = null;
const listeners = new Set<() => void>();

function set(next: number | null) {
  if (next === reading) return;
  reading = next;
  for (const l of listeners) l();
}

function subscribe(onChange: () => void) {
  listeners.add(onChange);
  document.addEventListener('visibilitychange', onChange);
  return () => {
    listeners.delete(onChange);
    document.removeEventListener('visibilitychange', onChange);
  };
}

const snapshot = () => (document.visibilityState === 'visible' ? reading : null);

/** The ticket being read now, or null (none shown, or the page is hidden). */
export function useReadingTicket(): number | null {
  return useSyncExternalStore(subscribe, snapshot, () => null);
}

/** Declares the chat of `ticketId` as being read while mounted (null: this chat is not read). */
export function useDeclareReading(ticketId: number | null): void {
  useEffect(() => {
    if (ticketId === null) return;
    set(ticketId);
    return () => {
      if (reading === ticketId) set(null);
    };
  }, [ticketId]);
}
