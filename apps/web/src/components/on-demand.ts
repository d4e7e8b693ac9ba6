import { useCallback, useState } from 'react';

/** Something a module exports (usually a component), fetched the first time it is asked for. */
export interface OnDemand<T> {
  /** What the module gave, once it has arrived. */
  current: T | null;
  /** Fetches it (once; a failed fetch may be asked for again). */
  load: () => Promise<T>;
}

/** An export fetched on first `load()`; every caller after that has it at once. */
export function onDemand<T>(importer: () => Promise<T>): OnDemand<T> {
  let pending: Promise<T> | null = null;
  const handle: OnDemand<T> = {
    current: null,
    load: () =>
      (pending ??= importer().then(
        (value) => (handle.current = value),
        (error: unknown) => {
          pending = null;
          throw error;
        },
      )),
  };
  return handle;
}

/**
 * The export of `handle` (null until it is there) and a function that asks for it; the
 * component renders again when it arrives. `beforeSwap` runs just before that render (to note
 * what the light stand-in had: its focus, its caret). A fetch that fails leaves the stand-in;
 * the next ask tries again.
 */
export function useOnDemand<T>(handle: OnDemand<T>, beforeSwap?: () => void): [T | null, () => void] {
  const [value, setValue] = useState<T | null>(() => handle.current);
  const ask = useCallback(() => {
    void handle.load().then(
      (arrived) => {
        beforeSwap?.();
        // A function (a component) is stored as it is, not called as an updater.
        setValue(() => arrived);
      },
      () => undefined,
    );
    // `beforeSwap` reads refs only; the first one given is enough.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [handle]);
  return [value, ask];
}
