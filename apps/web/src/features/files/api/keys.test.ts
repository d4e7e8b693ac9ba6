import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { filesKeys, refreshFiles } from './keys';

describe('refreshFiles', () => {
  it('shows a file that arrived while the folder was still loading for the first time', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let files = ['a.txt'];
    let releaseFirst = () => {};
    let calls = 0;
    // The first listing is held on its way (a slow server); later ones answer at once.
    const queryFn = () => {
      const seen = [...files];
      calls += 1;
      return calls === 1 ? new Promise<string[]>((resolve) => (releaseFirst = () => resolve(seen))) : Promise.resolve(seen);
    };
    const observer = new QueryObserver(client, { queryKey: filesKeys.listPage('/Team', 'name', 0), queryFn });
    const unsubscribe = observer.subscribe(() => undefined);
    expect(calls).toBe(1);

    // An upload finishes while that first answer (computed before it) is still coming.
    files = [...files, 'b.txt'];
    const refreshed = refreshFiles(client);
    releaseFirst();
    await refreshed;

    expect(observer.getCurrentResult().data).toEqual(['a.txt', 'b.txt']);
    unsubscribe();
    client.clear();
  });
});
