import type { HttpTarget } from './harness.js';

/** Calls of the public share page, with an optional share token and bearer token. */
export function publicShare(server: HttpTarget) {
  const headers = (shareToken?: string) => (shareToken ? { 'x-share-token': shareToken } : undefined);
  return {
    info: (key: string, opts: { shareToken?: string; token?: string } = {}) =>
      server.request('GET', `/api/share/public/${key}`, { headers: headers(opts.shareToken), token: opts.token }),
    unlock: (key: string, password: string, opts: { token?: string } = {}) =>
      server.request('POST', `/api/share/public/${key}/unlock`, { body: { password }, token: opts.token }),
    list: (key: string, path = '/', opts: { shareToken?: string; token?: string } = {}) =>
      server.request('GET', `/api/share/public/${key}/list?path=${encodeURIComponent(path)}`, { headers: headers(opts.shareToken), token: opts.token }),
    /** Downloads keeping the body as bytes. */
    download: async (key: string, path = '/', opts: { shareToken?: string; token?: string; route?: 'download' | 'preview' } = {}) => {
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
