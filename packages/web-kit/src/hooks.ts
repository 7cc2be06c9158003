import { useCallback, useEffect, useRef, useState } from 'react';

/** State of data loaded from the API. */
export interface Resource<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  /** Loads again; keeps the current data on screen meanwhile. */
  reload: () => void;
  /** Replaces the data in place (after a write whose answer is known). */
  setData: (update: T | ((current: T | undefined) => T)) => void;
}

/**
 * Loads `load()` when `key` changes, aborting the previous request; the
 * latest answer wins, so a slow old answer never overwrites a newer one.
 */
export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, key: unknown[]): Resource<T> {
  const [data, setDataState] = useState<T | undefined>(undefined);
  const [error, setError] = useState<Error | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's key decides when to load (load itself is read through a ref, new each render), and generation is how reload() asks for another load.
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    loadRef
      .current(controller.signal)
      .then((value) => {
        if (controller.signal.aborted) return;
        setDataState(value);
        setError(undefined);
        setLoading(false);
      })
      .catch((reason: Error) => {
        if (controller.signal.aborted || reason.name === 'AbortError') return;
        setError(reason);
        setLoading(false);
      });
    return () => controller.abort();
  }, [...key, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  const setData = useCallback((update: T | ((current: T | undefined) => T)) => {
    setDataState((current) => (typeof update === 'function' ? (update as (c: T | undefined) => T)(current) : update));
  }, []);
  return { data, error, loading, reload, setData };
}

/** Sets the document title as `PAGE · Switchboard SERVICE`. */
export function useTitle(title: string, service: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${service}` : service;
  }, [title, service]);
}

/** An action in flight (a form's submission, a button's request): `busy` while it runs, what went wrong in `error`. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  /** Runs `task` with `busy` set and `error` cleared; a failure's message goes to `error`. */
  const run = async (task: () => Promise<void>) => {
    setBusy(true);
    setError('');
    try {
      await task();
    } catch (reason) {
      setError((reason as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
