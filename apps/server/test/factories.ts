import { apiCalls, type CreateShareRequest } from '@bogwan/contracts';
import { expect } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, type HttpTarget, type TestServer } from './harness.js';
import { upload } from './transfer-helpers.js';

// Per-test factories: each call makes its own account, folder, file or link with a name no
// other call uses, so a test states what it needs and no test depends on what another left.

let made = 0;

/** A name no other call of this test file gets (`보고서` → `보고서 7`). */
export function uniqueName(base: string): string {
  made += 1;
  return `${base} ${made}`;
}

/** A session of one account, as `signInAs` answers it. */
export type MadeUser = Awaited<ReturnType<typeof signInAs>>;

/** A new signed-in account (`USER` unless told) with an e-mail address of its own. */
export async function makeUser(server: TestServer, options: { role?: 'USER' | 'ADMIN'; email?: string } = {}): Promise<MadeUser> {
  made += 1;
  return signInAs(server, options.email ?? `user-${made}@example.com`, options.role ?? 'USER');
}

/** A folder the API made: its path and name. */
export interface MadeFolder {
  name: string;
  path: string;
}

/**
 * A new folder: a root folder when `parent` is `/` (the token must then be an administrator's),
 * else a sub folder of `parent`. Its name is unique unless given.
 */
export async function makeFolder(
  server: HttpTarget,
  token: string,
  options: { parent?: string; name?: string; backend?: 'server' | 'cloud' } = {},
): Promise<MadeFolder> {
  const parent = options.parent ?? '/';
  const name = options.name ?? uniqueName('폴더');
  await call(server, apiCalls.folder_create, { token, body: { name, path: parent, ...(options.backend ? { backend: options.backend } : {}) } });
  return { name, path: parent === '/' ? `/${name}` : `${parent}/${name}` };
}

/** A file the API stored: its path, name and bytes. */
export interface MadeFile {
  name: string;
  path: string;
  bytes: Buffer;
}

/** A new file uploaded into `folder` (a path), holding `bytes` (a few bytes of its own name unless given). */
export async function makeFile(server: HttpTarget, token: string, folder: string, options: { name?: string; bytes?: Buffer } = {}): Promise<MadeFile> {
  const name = options.name ?? uniqueName('파일') + '.txt';
  const bytes = options.bytes ?? Buffer.from(`${name}\n`);
  const res = await upload(server, token, folder, name, bytes);
  expect(res.status, res.text).toBe(200);
  return { name, path: `${folder}/${name}`, bytes };
}

/** A share link of `path` (scope `anyone` unless told); answers the created link as the API does. */
export async function makeShare(server: HttpTarget, token: string, path: string, options: Partial<CreateShareRequest> = {}) {
  const res = await call(server, apiCalls.share_create, { token, body: { scope: 'anyone', path, ...options } });
  return res.body;
}
