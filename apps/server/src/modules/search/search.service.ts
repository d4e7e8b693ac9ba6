import { type FileCategory, type SearchResult, extensionOf, fileCategory, isInside } from '@bogwan/contracts';
import type { FileAccess, NodeRow } from '../files/ports.js';
import type { UserRow } from '../users/users.repo.js';
import type { NodeFilters, SearchRepo } from './search.repo.js';
import { dayEnd, dayStart } from './search-dates.js';
import { tidySnippet } from './search-snippet.js';

/** Candidates read per round (a little more than asked for, since some may be filtered out), and at most this many per kind of match (bounds the work of one query). */
const PAGE_MIN = 40;
const PAGE_MAX = 200;
const MAX_CANDIDATES = 2000;

export interface SearchRequest {
  keyword: string;
  limit: number;
  type?: FileCategory | 'folder';
  folder?: string;
  from?: string;
  to?: string;
}

interface Accepted {
  node: NodeRow;
  path: string;
  /** Inside a locked (secure) folder, or one itself. */
  locked: boolean;
}

/**
 * The keyword search: names first, then contents; every match is a live node the caller
 * may READ (through the FileAccess port, in batches), with its current path. Files inside
 * a locked (secure) folder are found by their name only: a content match, or a passage of
 * their text, would tell what they hold without the approval their bytes need.
 */
export class SearchService {
  constructor(
    private readonly repo: SearchRepo,
    private readonly access: () => FileAccess,
  ) {}

  async search(user: UserRow, request: SearchRequest): Promise<SearchResult[]> {
    const filters: NodeFilters = {
      from: request.from ? dayStart(request.from) : undefined,
      to: request.to ? dayEnd(request.to) : undefined,
      folder: request.type === 'folder' ? true : request.type ? false : undefined,
    };
    const results: SearchResult[] = [];
    const seen = new Set<string>();
    const room = () => request.limit - results.length;
    const PAGE = Math.min(PAGE_MAX, Math.max(PAGE_MIN, request.limit * 2));

    // Names: ranked candidates, asked for in growing numbers only while the caller may
    // read too few of them; each new batch goes through the paths and the permission filter once.
    for (let want = PAGE, done = 0; room() > 0; want = Math.min(MAX_CANDIDATES, want * 4)) {
      const ranked = await this.repo.nameMatches(request.keyword, filters, want);
      const fresh = ranked.slice(done).filter((node) => !seen.has(node.id));
      done = ranked.length;
      for (const { node, path } of (await this.accept(user, fresh, request)).slice(0, room())) {
        seen.add(node.id);
        results.push(present(node, path, 'name', node.name));
      }
      if (ranked.length < want || want >= MAX_CANDIDATES) break;
    }

    if (request.type === 'folder') return results;
    const contentHits: Accepted[] = [];
    for (let skip = 0; skip < MAX_CANDIDATES && room() - contentHits.length > 0; skip += PAGE) {
      const hashes = await this.repo.contentMatches(request.keyword, skip, PAGE);
      const files = (await this.repo.filesWithContent(hashes, filters)).filter((node) => !seen.has(node.id));
      const accepted = (await this.accept(user, files, request)).filter((hit) => !hit.locked);
      for (const hit of accepted.slice(0, room() - contentHits.length)) {
        seen.add(hit.node.id);
        contentHits.push(hit);
      }
      if (hashes.length < PAGE) break;
    }
    // Snippets are read only for files the caller may read, outside every lock.
    const snippets = await this.repo.snippets([...new Set(contentHits.map((hit) => hit.node.content_hash!))], request.keyword);
    for (const { node, path } of contentHits) {
      results.push(present(node, path, 'content', snippetOf(snippets.get(node.content_hash!))));
    }
    return results;
  }

  /** The live nodes among `rows` that pass the folder and type filters and that `user` may READ, with their paths. */
  private async accept(user: UserRow, rows: NodeRow[], request: SearchRequest): Promise<Accepted[]> {
    if (rows.length === 0) return [];
    const places = await this.repo.livePlaces(rows.map((row) => row.id));
    const candidates = rows.filter((row) => {
      const place = places.get(row.id);
      if (place === undefined) return false;
      if (request.folder && !isInside(place.path, request.folder)) return false;
      if (request.type && request.type !== 'folder' && fileCategory(row.name) !== request.type) return false;
      return true;
    });
    const readable = await this.access().filter(user, candidates, 'READ');
    return readable.map((node) => ({ node, ...places.get(node.id)! }));
  }
}

function present(node: NodeRow, path: string, match: SearchResult['match'], snippet: string): SearchResult {
  return {
    _id: node.id,
    name: node.name,
    path,
    folder: node.folder === 1,
    size: node.size,
    mtime: node.mtime,
    extension: node.folder === 1 ? '' : extensionOf(node.name),
    match,
    snippet,
  };
}

/** A content hit's snippet, or '' when its text has gone. */
function snippetOf(found: { passage: string; cut: boolean } | undefined): string {
  return found ? tidySnippet(found.passage, found.cut) : '';
}
