import { apiCalls, SHARE_TOKEN_HEADER } from '@bogwan/contracts';
import { call, callRefused, type HttpTarget } from './harness.js';

/** Who visits a share page: a share token from unlocking it, a bearer token of a signed-in user, both or neither. */
export interface Visitor {
  shareToken?: string;
  token?: string;
}

/**
 * Calls of the public share page, with an optional share token and bearer token, through the
 * typed contracts: `info` / `list` / `unlocked` expect success, the `…Refused` twins a refusal.
 */
export function publicShare(server: HttpTarget) {
  const headers = (shareToken?: string) => (shareToken ? { [SHARE_TOKEN_HEADER]: shareToken } : undefined);
  const as = (opts: Visitor) => ({ headers: headers(opts.shareToken), token: opts.token });
  return {
    info: (key: string, opts: Visitor = {}) => call(server, apiCalls.share_public, { params: { key }, ...as(opts) }),
    infoRefused: (key: string, opts: Visitor = {}) => callRefused(server, apiCalls.share_public, { params: { key }, ...as(opts) }),
    unlocked: (key: string, password: string, opts: { token?: string } = {}) =>
      call(server, apiCalls.share_public_unlock, { params: { key }, body: { password }, token: opts.token }),
    unlockRefused: (key: string, password: string, opts: { token?: string } = {}) =>
      callRefused(server, apiCalls.share_public_unlock, { params: { key }, body: { password }, token: opts.token }),
    /**
     * Any answer, success or refusal, untyped: kept for the suites that still read refusals
     * through it (audit-actions-sharing, multi-process/cluster); new tests use `unlocked` / `unlockRefused`.
     */
    unlock: (key: string, password: string, opts: { token?: string } = {}) =>
      server.request('POST', `/api/share/public/${key}/unlock`, { body: { password }, token: opts.token }),
    list: (key: string, path = '/', opts: Visitor = {}) => call(server, apiCalls.share_public_list, { params: { key }, query: { path }, ...as(opts) }),
    listRefused: (key: string, path = '/', opts: Visitor = {}) =>
      callRefused(server, apiCalls.share_public_list, { params: { key }, query: { path }, ...as(opts) }),
    /** Downloads keeping the body as bytes (raw: the typed calls read JSON or text). */
    download: async (key: string, path = '/', opts: Visitor & { route?: 'download' | 'preview' } = {}) => {
      const h: Record<string, string> = { ...headers(opts.shareToken) };
      if (opts.token) h.authorization = `Bearer ${opts.token}`;
      const res = await fetch(`${server.url}/api/share/public/${key}/${opts.route ?? 'download'}?path=${encodeURIComponent(path)}`, { headers: h });
      const bytes = Buffer.from(await res.arrayBuffer());
      let message: string | undefined;
      if (!res.ok) message = (JSON.parse(bytes.toString('utf8')) as { message: string }).message;
      return { status: res.status, headers: res.headers, bytes, message };
    },
  };
}

/** Waits until `check` holds (settling a download happens just after its answer ends). */
export async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
}
