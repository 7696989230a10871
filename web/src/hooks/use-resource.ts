import { useCallback, useEffect, useRef, useState } from 'react';
import { toastError } from '../ui/toast/toast-error.ts';

export type Resource<T> = {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
  /** Reads again in the background: the data stays until the new one comes, a failure keeps it quietly. */
  refresh: () => void;
  set: (update: (prev: T | undefined) => T | undefined) => void;
};

/** A REST read that reloads on demand; errors go through the shared handler once. */
export function useResource<T>(load: () => Promise<T>, deps: unknown[]): Resource<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    let live = true;
    setLoading(true);
    load().then(
      (value) => {
        if (!live) return;
        setData(value);
        setError(null);
        setLoading(false);
      },
      (err: unknown) => {
        if (!live) return;
        setError(err);
        setLoading(false);
        toastError(err);
      },
    );
    return () => {
      live = false;
    };
    // The caller names what the request depends on, as with useEffect.
  }, [...deps, tick]);

  const reload = useCallback(() => setTick((n) => n + 1), []);

  // The newest load (its dependencies may have changed since the last render's), and which refresh
  // is the latest: an older one that answers late never overwrites a newer answer or a reload.
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });
  const refreshes = useRef(0);
  useEffect(() => {
    refreshes.current++;
  }, [...deps, tick]);
  const refresh = useCallback(() => {
    const mine = ++refreshes.current;
    loadRef.current().then(
      (value) => mine === refreshes.current && setData(value),
      () => {},
    );
  }, []);
  return { data, error, loading, reload, refresh, set: setData };
}
