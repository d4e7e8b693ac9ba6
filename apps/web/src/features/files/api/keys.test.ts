import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { heldFirstFetch } from '../../../api/first-fetch-fixture';
import { filesKeys, refreshFiles } from './keys';

describe('refreshFiles', () => {
  it('shows a file that arrived while the folder was still loading for the first time', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const server = heldFirstFetch(['a.txt']);
    const observer = new QueryObserver(client, { queryKey: filesKeys.listPage('/Team', 'name', 0), queryFn: server.queryFn });
    const unsubscribe = observer.subscribe(() => undefined);
    expect(server.calls()).toBe(1);

    // An upload finishes while that first answer (computed before it) is still coming.
    server.change(['a.txt', 'b.txt']);
    const refreshed = refreshFiles(client);
    server.release();
    await refreshed;

    expect(observer.getCurrentResult().data).toEqual(['a.txt', 'b.txt']);
    unsubscribe();
    client.clear();
  });
});
