/** Query key of the user's task cache (`GET /api/cache`). */
export const taskCacheKey = (userId: string) => ['cache', userId] as const;
