import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Refetches the queries under `queryKey` after the server changed what they show. Fetches
 * already on the way are cancelled first: a query's first fetch (no data yet) would
 * otherwise absorb the invalidation and keep an answer the server computed before the
 * change (a folder opened, or a page reloaded, while an upload finishes or an event arrives).
 */
export async function refetchAfterChange(client: QueryClient, queryKey: QueryKey): Promise<void> {
  await client.cancelQueries({ queryKey });
  await client.invalidateQueries({ queryKey });
}
