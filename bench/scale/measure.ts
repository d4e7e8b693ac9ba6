// The figures, through the real HTTP API with a signed-in administrator: the calls the web
// makes to list the large folder, open the tree, search, show usage and the trash; and a
// snapshot plan run twice, the second time with nothing changed.
import { BIG_FOLDER_FILES, BIG_FOLDER_PATH, COMMON_WORD, CONTENT_WORD, NAME_WORD, TREE_PATH } from './installation.js';
import { type Timing, api, msSince, timeCalls } from './server.js';

export const SEARCHES = { name: NAME_WORD, content: CONTENT_WORD, common: COMMON_WORD } as const;

/** The product's calls by figure; `files` decides the large folder's last page. */
export function productCalls(url: string, token: string, files: number) {
  const get = (path: string) => () => api(url, 'GET', path, token);
  const lastPage = Math.max(0, Math.min(files, BIG_FOLDER_FILES) - 100);
  const list = (skip: number, sort: string) => get(`/api/file/list?path=${encodeURIComponent(BIG_FOLDER_PATH)}&skip=${skip}&limit=100&sort=${sort}`);
  return {
    lastPage,
    listFirst: list(0, 'name'),
    listDeep: list(lastPage, 'name'),
    listDeepMtime: list(lastPage, '-mtime'),
    tree: get(`/api/file/tree?path=${encodeURIComponent(TREE_PATH)}`),
    search: (keyword: string) => get(`/api/search/keyword?keyword=${encodeURIComponent(keyword)}&limit=20`),
    rootUsage: get('/api/file/root/usage'),
    dashboard: get('/api/dashboard'),
    trash: get('/api/trash?skip=0&limit=100'),
  };
}

/** Every timed call of one installation: p50/p99 in ms. */
export async function measureCalls(url: string, token: string, files: number, runs: number): Promise<Record<string, Timing>> {
  const calls = productCalls(url, token, files);
  const first = (await calls.listFirst()) as { total: number };
  if (first.total !== Math.min(files, BIG_FOLDER_FILES)) throw new Error(`large folder lists ${first.total} entries`);
  const out: Record<string, Timing> = {};
  out.listFirst = await timeCalls(calls.listFirst, runs);
  out.listDeep = await timeCalls(calls.listDeep, runs);
  out.listDeepMtime = await timeCalls(calls.listDeepMtime, runs);
  out.tree = await timeCalls(calls.tree, runs);
  for (const [label, keyword] of Object.entries(SEARCHES)) out[`search_${label}`] = await timeCalls(calls.search(keyword), runs);
  out.rootUsage = await timeCalls(calls.rootUsage, runs);
  out.dashboard = await timeCalls(calls.dashboard, runs);
  out.trash = await timeCalls(calls.trash, runs);
  return out;
}

/** How many results each search answers (a check that the installation is searchable). */
export async function searchHits(url: string, token: string): Promise<Record<string, number>> {
  const hits: Record<string, number> = {};
  for (const [label, keyword] of Object.entries(SEARCHES)) {
    const answer = await api<unknown[] | { items: unknown[] }>(url, 'GET', `/api/search/keyword?keyword=${encodeURIComponent(keyword)}&limit=20`, token);
    hits[label] = Array.isArray(answer) ? answer.length : answer.items.length;
  }
  return hits;
}

interface SnapshotRun {
  _id: string;
  status: string;
  files: number;
  bytesAdded: number;
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
}

/** A snapshot plan of every root into `repository`, run twice; seconds from the run call to its end, each. */
export async function snapshotTwice(url: string, token: string, repository: string) {
  const plan = await api<{ _id: string }>(url, 'POST', '/api/snapshot/plan', token, {
    name: 'scale',
    backupType: 'incremental',
    target: { all: true, roots: [] },
    location: { kind: 'local', path: repository },
    password: 'bench-password-1',
  });
  const runOnce = async () => {
    const t = process.hrtime.bigint();
    const started = await api<SnapshotRun>(url, 'POST', `/api/snapshot/plan/${plan._id}/run`, token);
    for (;;) {
      const { items } = await api<{ items: SnapshotRun[] }>(url, 'GET', `/api/snapshot/run?planId=${plan._id}&limit=10`, token);
      const run = items.find((r) => r._id === started._id);
      if (run && run.status !== 'running') {
        if (run.status !== 'completed') throw new Error(`snapshot ${run.status}: ${run.error}`);
        return { seconds: msSince(t) / 1000, files: run.files, bytesAdded: run.bytesAdded };
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const first = await runOnce();
  const second = await runOnce();
  return { first, second };
}
