// Older messages of one internal chat, from GET /chats/{id}/messages (newest first, PAGE_SIZE a page):
// the sync view carries only the recent ones. Nothing is fetched until the reader scrolls up; the
// first page asked for is the one just past the synced messages, and a page that brings nothing new
// (new messages shift the offsets) is skipped at once, so one scroll always shows more. Once the
// server says hasMore is false nothing more is fetched for that chat.
import { useCallback, useEffect, useRef, useState } from 'react';
import { PAGE_SIZE, type ChatMessage } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { toastError } from '../../ui/toast/toast-error.ts';

type Older = { chatId: number; records: ChatMessage[]; page: number; hasMore: boolean };
type Page = { records: ChatMessage[]; hasMore: boolean };

export function useOlderMessages(chatId: number) {
  const [older, setOlder] = useState<Older>({ chatId, records: [], page: 0, hasMore: true });
  const [loading, setLoading] = useState(false);
  const request = useRef(0);
  const known = useRef(new Set<number>());

  useEffect(() => {
    request.current++;
    setLoading(false);
    setOlder({ chatId, records: [], page: 0, hasMore: true });
  }, [chatId]);

  const load = useCallback(function load(id: number, page: number) {
    const mine = ++request.current;
    setLoading(true);
    api
      .get<Page>(`/chats/${id}/messages`, { query: { pageNumber: page } })
      .then(
        (body) => {
          if (mine !== request.current) return;
          if (body.hasMore && body.records.every((m) => known.current.has(m.id))) {
            load(id, page + 1);
            return;
          }
          setOlder((prev) => ({ chatId: id, page, hasMore: body.hasMore, records: prev.chatId === id ? [...prev.records, ...body.records] : body.records }));
          setLoading(false);
        },
        (err: unknown) => {
          if (mine !== request.current) return;
          setLoading(false);
          toastError(err);
        },
      );
  }, []);

  const current = older.chatId === chatId ? older : null;
  const hasMore = current?.hasMore ?? true;
  /** `shown`: what the pane holds now (synced and older), to size the first page and skip empty ones. */
  const loadOlder = useCallback((shown: readonly { id: number }[]) => {
    if (!current || !current.hasMore || loading) return;
    known.current = new Set(shown.map((m) => m.id));
    // Offsets count from the newest message: the shown ones are (at least) the first pages.
    const next = current.page === 0 ? Math.floor(known.current.size / PAGE_SIZE) + 1 : current.page + 1;
    load(chatId, next);
  }, [current, loading, load, chatId]);

  return { older: current?.records ?? [], loading, hasMore, loadOlder };
}
