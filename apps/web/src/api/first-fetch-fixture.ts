/**
 * For tests of refetching: a query function whose first answer is held back until the
 * test releases it (a slow server), each answer showing the server's state when the
 * call arrived; later calls answer at once.
 */
export function heldFirstFetch<T>(initial: T) {
  let state = initial;
  let releaseFirst = () => {};
  let calls = 0;
  const queryFn = (): Promise<T> => {
    const seen = state;
    calls += 1;
    return calls === 1 ? new Promise<T>((resolve) => (releaseFirst = () => resolve(seen))) : Promise.resolve(seen);
  };
  return {
    queryFn,
    /** Changes what the server answers from now on. */
    change: (next: T) => (state = next),
    release: () => releaseFirst(),
    calls: () => calls,
  };
}
