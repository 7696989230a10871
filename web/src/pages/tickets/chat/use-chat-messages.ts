// A ticket's messages as the chat draws them: the synced newest ones (live, with the optimistic
// bubbles of sends not confirmed yet) merged with the REST pages of GET /messages/{ticketId}
// (page 1 on opening, which also marks the ticket read; older pages on scroll).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Message, MessagePage } from '@zapdesk/sync';
import { api } from '../../../api/client.ts';
import { toastError } from '../../../ui/toast/toast-error.ts';
import { useTicketMessages } from '../use-ticket-data.ts';
import { mergeMessages } from './messages.ts';

type Paged = { ticketId: number; messages: Message[]; page: number; hasMore: boolean };

export function useChatMessages(ticketId: number | null, synced: boolean) {
  const live = useTicketMessages(synced ? ticketId : null);
  const [paged, setPaged] = useState<Paged | null>(null);
  const [loading, setLoading] = useState(false);
  const request = useRef(0);

  const load = useCallback((id: number, page: number) => {
    const mine = ++request.current;
    setLoading(true);
    api
      .get<MessagePage>(`/messages/${id}`, { query: { pageNumber: page } })
      .then(
        (body) => {
          if (mine !== request.current) return;
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

  const current = paged?.ticketId === ticketId ? paged : null;
  const messages = useMemo(() => mergeMessages(current?.messages ?? [], live ?? []), [current, live]);
  const loadOlder = useCallback(() => {
    if (!current || !current.hasMore || loading) return;
    load(current.ticketId, current.page + 1);
  }, [current, loading, load]);

  return { messages, hasOlder: current?.hasMore ?? true, loadingOlder: loading && (current?.page ?? 0) >= 1, ready: current !== null || (live !== undefined && live.length > 0), loadOlder };
}
