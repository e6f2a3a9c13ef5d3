import { useCallback, useEffect, useRef, useState } from 'react';
import { type ApiError, toApiError } from '../api/errors.js';

/** What a page loaded: the last data (kept while reloading), the last error, and how to reload. */
export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  /** When data last arrived. */
  updatedAt: Date | undefined;
  reload: () => void;
}

/**
 * Runs `load` (memoize it with useCallback) when it changes, and every `refreshMs` while the tab
 * is visible. A newer load aborts an older one, so a slow answer never overwrites a fresh one.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, refreshMs?: number | false): Loaded<T> {
  const [state, setState] = useState<Omit<Loaded<T>, 'reload'>>({
    data: undefined,
    error: undefined,
    loading: true,
    updatedAt: undefined,
  });
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((value) => value + 1), []);
  const previousLoad = useRef(load);

  useEffect(() => {
    const controller = new AbortController();
    // A new query (another page, another filter) must not show the previous query's data.
    const fresh = previousLoad.current !== load;
    previousLoad.current = load;
    setState((current) => ({
      ...current,
      loading: true,
      ...(fresh ? { data: undefined, error: undefined } : {}),
    }));
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted)
          setState({ data, error: undefined, loading: false, updatedAt: new Date() });
      },
      (error: unknown) => {
        if (!controller.signal.aborted)
          setState((current) => ({ ...current, error: toApiError(error), loading: false }));
      },
    );
    return () => controller.abort();
  }, [load, tick]);

  useEffect(() => {
    if (!refreshMs) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') setTick((value) => value + 1);
    }, refreshMs);
    return () => window.clearInterval(timer);
  }, [refreshMs]);

  return { ...state, reload };
}
