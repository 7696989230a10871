// Paged REST lists with search (spec/02 §9): the search is debounced 500 ms, the next page loads when
// the scroll container is within 100 px of its bottom, and a stale response never overwrites a newer one.
// The pages shown are read again after pokes (useRefreshOnPoke), so another user's change shows.
import { useCallback, useEffect, useRef, useState, type UIEvent } from 'react';
import { api } from '../api/client.ts';
import { useRefreshOnPoke } from '../sync/use-refresh-on-poke.ts';
import { toastError } from '../ui/toast/toast-error.ts';
import { nearBottom, SEARCH_DEBOUNCE_MS } from './scroll.ts';

/** The query of one page: the search, the page number and the caller's extra filters (as JSON). */
const pageQuery = (searchParam: string, pageNumber: number, extra: string) => ({ searchParam, pageNumber, ...(JSON.parse(extra) as Record<string, string>) });

type PageBody<T> = { hasMore: boolean } & Record<string, unknown> & { [k: string]: T[] | boolean | unknown };

export type InfiniteListOptions = {
  /**
   * Reads wait for this first: a list that shows presence waits for the sync socket's first try
   * (useSocketSettled), so the signed-in user is not shown offline by a read made before it.
   */
  after?: Promise<void>;
};

export function useInfiniteList<T extends { id: number }>(
  path: string,
  itemsKey: string,
  search: string,
  extraQuery: Record<string, string | number | undefined> = {},
  { after }: InfiniteListOptions = {},
) {
  const [items, setItems] = useState<T[]>([]);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [debounced, setDebounced] = useState(search);
  const [tick, setTick] = useState(0);
  const request = useRef(0);
  const extra = JSON.stringify(extraQuery);

  useEffect(() => {
    const timer = setTimeout(() => setDebounced(search), search ? SEARCH_DEBOUNCE_MS : 0);
    return () => clearTimeout(timer);
  }, [search]);

  // A new search (or reload) starts over from page 1.
  useEffect(() => {
    setItems([]);
    setPage(1);
  }, [debounced, tick, extra]);

  useEffect(() => {
    const mine = ++request.current;
    setLoading(true);
    (after ?? Promise.resolve())
      .then(() => api.get<PageBody<T>>(path, { query: pageQuery(debounced, page, extra) }))
      .then(
        (body) => {
          if (mine !== request.current) return;
          const rows = (body[itemsKey] as T[]) ?? [];
          setItems((prev) => {
            // Merge by id: a row that moved between pages after an edit appears once.
            const seen = new Set(prev.map((r) => r.id));
            return page === 1 ? rows : [...prev, ...rows.filter((r) => !seen.has(r.id))];
          });
          setHasMore(body.hasMore);
        },
        (err: unknown) => mine === request.current && toastError(err),
      )
      .finally(() => mine === request.current && setLoading(false));
  }, [path, itemsKey, debounced, page, tick, extra, after]);

  const onScroll = useCallback(
    (e: UIEvent<HTMLElement>) => {
      if (hasMore && !loading && nearBottom(e.currentTarget)) setPage((p) => p + 1);
    },
    [hasMore, loading],
  );

  const reload = useCallback(() => setTick((n) => n + 1), []);

  // After a poke: the pages already shown are read again and swapped in at once, so the list
  // neither empties nor loses its scroll place. A page load or search that starts meanwhile wins.
  const pages = useRef(page);
  useEffect(() => {
    pages.current = page;
  }, [page]);
  const refreshes = useRef(0);
  const refresh = useCallback(() => {
    const loads = request.current;
    const mine = ++refreshes.current;
    Promise.all(Array.from({ length: pages.current }, (_, i) => api.get<PageBody<T>>(path, { query: pageQuery(debounced, i + 1, extra) }))).then(
      (bodies) => {
        if (loads !== request.current || mine !== refreshes.current) return;
        const seen = new Set<number>();
        const rows = bodies.flatMap((body) => ((body[itemsKey] as T[]) ?? []).filter((r) => !seen.has(r.id) && seen.add(r.id)));
        setItems(rows);
        setHasMore(bodies.at(-1)?.hasMore ?? false);
      },
      // A failed background refresh is not worth a toast: the list stays as it was.
      () => {},
    );
  }, [path, itemsKey, debounced, extra]);
  useRefreshOnPoke(refresh);

  return { items, setItems, loading, hasMore, onScroll, reload };
}
