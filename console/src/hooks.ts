import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { request } from './api.js';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/**
 * Loads `path` (null: nothing to load), again every `pollMs` when given; polls send the last
 * ETag so an unchanged answer costs a 304. A newer load cancels the one under way.
 */
export function useResource<T>(path: string | null, pollMs?: number): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: undefined, loading: path !== null });
  const [tick, setTick] = useState(0);
  const etag = useRef<string | null>(null);
  const reload = useCallback(() => setTick((value) => value + 1), []);
  useEffect(() => {
    etag.current = null;
    setState((previous) => ({ ...previous, loading: path !== null }));
  }, [path]);
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    request<T>(path, { signal: controller.signal, etag: etag.current ?? undefined }).then(
      (answer) => {
        if (answer.status !== 304) {
          etag.current = answer.etag;
          setState({ data: answer.body, error: undefined, loading: false });
        } else setState((previous) => ({ ...previous, error: undefined, loading: false }));
      },
      (error: unknown) => {
        if ((error as Error).name !== 'AbortError') setState((previous) => ({ ...previous, error, loading: false }));
      },
    );
    return () => controller.abort();
  }, [path, tick]);
  useEffect(() => {
    if (!pollMs || path === null) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') setTick((value) => value + 1);
    }, pollMs);
    return () => clearInterval(timer);
  }, [path, pollMs]);
  return { ...state, reload };
}

/** `value`, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
