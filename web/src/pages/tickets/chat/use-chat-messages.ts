// A ticket's messages as the chat draws them: the synced newest ones (live, with the optimistic
// bubbles of sends not confirmed yet) merged with the REST pages of GET /messages/{ticketId}
// (page 1 on opening, which also marks the ticket read; older pages on scroll; page 1 again after
// pokes for a ticket the sync view does not hold).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Message, MessagePage } from '@zapdesk/sync';
import { api } from '../../../api/client.ts';
import { toastError } from '../../../ui/toast/toast-error.ts';
import { useRefreshOnPoke } from '../../../sync/use-refresh-on-poke.ts';
import { useTicketMessages } from '../use-ticket-data.ts';
import { mergeMessages, messageRowKey } from './messages.ts';

type Paged = { ticketId: number; messages: Message[]; page: number; hasMore: boolean };

const noop = () => {};

export function useChatMessages(ticketId: number | null, synced: boolean) {
  const live = useTicketMessages(synced ? ticketId : null);
  const [paged, setPaged] = useState<Paged | null>(null);
  const [loading, setLoading] = useState(false);
  const request = useRef(0);
  // The keys the chat already holds: a page that brings nothing new (the synced newest 50 cover the
  // first pages) is skipped by loading the next one at once, so scrolling up always shows more.
  const known = useRef(new Set<string>());

  const load = useCallback(function load(id: number, page: number) {
    const mine = ++request.current;
    setLoading(true);
    api
      .get<MessagePage>(`/messages/${id}`, { query: { pageNumber: page } })
      .then(
        (body) => {
          if (mine !== request.current) return;
          if (page > 1 && body.hasMore && body.messages.every((m) => known.current.has(messageRowKey(m)))) {
            load(id, page + 1);
            return;
          }
          setPaged((prev) => ({
            ticketId: id,
            page,
            hasMore: body.hasMore,
            messages: page === 1 || prev?.ticketId !== id ? body.messages : [...body.messages, ...prev.messages],
          }));
        },
        (err: unknown) => mine === request.current && toastError(err),
      )
      .finally(() => mine === request.current && setLoading(false));
  }, []);

  useEffect(() => {
    setPaged(null);
    if (ticketId !== null) load(ticketId, 1);
  }, [ticketId, load]);

  // A ticket outside the sync view (closed) has no live rows: after pokes its newest page is read
  // again and laid over what is shown (an ack that arrived after closing, a message deleted since).
  const refresh = useCallback(() => {
    if (ticketId === null) return;
    api.get<MessagePage>(`/messages/${ticketId}`, { query: { pageNumber: 1 } }).then(
      (body) => setPaged((prev) => (prev?.ticketId === ticketId ? { ...prev, messages: mergeMessages(prev.messages, body.messages) } : prev)),
      () => {},
    );
  }, [ticketId]);
  useRefreshOnPoke(synced ? noop : refresh);

  const current = paged?.ticketId === ticketId ? paged : null;
  const messages = useMemo(() => mergeMessages(current?.messages ?? [], live ?? []), [current, live]);
  known.current = new Set(messages.map(messageRowKey));
  const loadOlder = useCallback(() => {
    if (!current || !current.hasMore || loading) return;
    load(current.ticketId, current.page + 1);
  }, [current, loading, load]);

  return { messages, hasOlder: current?.hasMore ?? true, loadingOlder: loading && (current?.page ?? 0) >= 1, ready: current !== null || (live !== undefined && live.length > 0), loadOlder };
}
