import { randomBytes } from 'node:crypto';
import type { HttpTarget, TestResponse } from './harness.js';
import { upload } from './transfer-helpers.js';

/** Uploads a whole buffer with an `onConflict` action, as one upload of its own (its uploadId); answers the last answer. */
export function uploadAs(server: HttpTarget, token: string, path: string, fileName: string, data: Buffer, onConflict: string): Promise<TestResponse> {
  return upload(server, token, path, fileName, data, { onConflict, uploadId: randomBytes(16).toString('base64url') });
}

export interface ListedVersion {
  _id: string;
  size: number;
  hash: string;
  current: boolean;
  author: { _id: string; name: string } | null;
}

/** A file's versions, current first. */
export async function versionsOf(server: HttpTarget, token: string, path: string): Promise<ListedVersion[]> {
  const res = await server.request('GET', `/api/file/versions?path=${encodeURIComponent(path)}`, { token });
  if (res.status !== 200) throw new Error(`versions ${path}: ${res.status} ${res.text}`);
  return res.body.items as ListedVersion[];
}

/** A root's usage and its parts. */
export async function breakdownOf(
  server: HttpTarget,
  token: string,
  rootPath: string,
): Promise<{ usage: number; live: number; versions: number; trash: number }> {
  const res = await server.request('GET', '/api/file/root/usage', { token });
  const root = (res.body.roots as { path: string; usage: number; breakdown: { live: number; versions: number; trash: number } }[]).find(
    (r) => r.path === rootPath,
  );
  if (!root) throw new Error(`no root ${rootPath}`);
  return { usage: root.usage, ...root.breakdown };
}

export const versionUrl = (path: string, id: string) => `/api/file/version/download?path=${encodeURIComponent(path)}&id=${encodeURIComponent(id)}`;
