import { searchQuerySchema, searchResponseSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RoutePolicy } from '../../http/policy.js';
import type { SearchService } from './search.service.js';

const category = 'search';
const policies = {
  keyword: { category, name: 'search_keyword', description: 'Files and folders the caller may read, by name and by content', level: 1 },
  keywordSpec: { category, name: 'search_keyword_llm', description: 'The same keyword search at the path the specification names', level: 1 },
} satisfies Record<string, RoutePolicy>;

/** `GET /api/search/keyword` and the specification's `GET /llm/search/keyword`: one handler. */
export async function searchRoutes(app: FastifyInstance, { search }: { search: SearchService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];
  for (const [url, policy] of [
    ['/api/search/keyword', policies.keyword],
    ['/llm/search/keyword', policies.keywordSpec],
  ] as const) {
    r.get(
      url,
      { config: { policy }, schema: { tags, querystring: searchQuerySchema, response: { 200: searchResponseSchema } } },
      // `userId` in the query is ignored: the caller is the token's user.
      (request) => search.search(request.user!, request.query),
    );
  }
}
