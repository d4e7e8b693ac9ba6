import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { filesKeys } from './keys';
import { refreshUsage } from './get-root-usage';

function watched() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  let calls = 0;
  const observer = new QueryObserver(client, { queryKey: filesKeys.usage, queryFn: async () => ++calls, staleTime: 30_000 });
  const unsubscribe = observer.subscribe(() => undefined);
  return { client, calls: () => calls, observer, close: () => (unsubscribe(), client.clear()) };
}

describe('refreshUsage', () => {
  afterEach(() => {
    delete (globalThis as { document?: unknown }).document;
  });

  it('reads the figures again at once in a tab someone sees', async () => {
    const usage = watched();
    await expect.poll(usage.calls).toBe(1);
    await refreshUsage(usage.client);
    expect(usage.calls()).toBe(2);
    usage.close();
  });

  it('only marks them stale in a hidden tab', async () => {
    const usage = watched();
    await expect.poll(usage.calls).toBe(1);
    (globalThis as { document?: unknown }).document = { visibilityState: 'hidden' };
    await refreshUsage(usage.client);
    expect(usage.calls()).toBe(1);
    expect(usage.client.getQueryState(filesKeys.usage)?.isInvalidated).toBe(true);
    usage.close();
  });
});
