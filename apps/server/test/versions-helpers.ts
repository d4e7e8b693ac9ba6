import { randomBytes } from 'node:crypto';
import { apiCalls, type FileVersion } from '@bogwan/contracts';
import { call, type HttpTarget, type TestResponse } from './harness.js';
import { upload } from './transfer-helpers.js';

/** Uploads a whole buffer with an `onConflict` action, as one upload of its own (its uploadId); answers the last answer. */
export function uploadAs(server: HttpTarget, token: string, path: string, fileName: string, data: Buffer, onConflict: string): Promise<TestResponse> {
  return upload(server, token, path, fileName, data, { onConflict, uploadId: randomBytes(16).toString('base64url') });
}

/** A file's versions, current first. */
export async function versionsOf(server: HttpTarget, token: string, path: string): Promise<FileVersion[]> {
  return (await call(server, apiCalls.file_versions, { token, query: { path } })).body.items;
}

/** A root's usage and its parts. */
export async function breakdownOf(
  server: HttpTarget,
  token: string,
  rootPath: string,
): Promise<{ usage: number; live: number; versions: number; trash: number }> {
  const res = await call(server, apiCalls.root_usage, { token });
  const root = res.body.roots.find((r) => r.path === rootPath);
  if (!root) throw new Error(`no root ${rootPath}`);
  return { usage: root.usage, ...root.breakdown };
}

export const versionUrl = (path: string, id: string) => `/api/file/version/download?path=${encodeURIComponent(path)}&id=${encodeURIComponent(id)}`;
