import crypto from 'node:crypto';
import { apiCalls } from '@bogwan/contracts';
import { newLocalUser } from '../src/modules/users/new-user.js';
import type { NodeRow } from '../src/modules/files/ports.js';
import { call, GOOD_PASSWORD, type HttpTarget, type TestServer } from './harness.js';

/** An account of the given role, inserted as the account screens will later create it, then signed in. */
export async function signInAs(server: TestServer, email: string, role: 'USER' | 'ADMIN' = 'USER') {
  const name = role === 'USER' ? '사용자' : '운영자';
  await server.app.db
    .insertInto('users')
    .values(await newLocalUser({ name, email, password: GOOD_PASSWORD, role }))
    .execute();
  return signIn(server, email);
}

/** Signs an account without a second factor in through the login call; answers its session. */
export async function signIn(server: HttpTarget, email: string, password = GOOD_PASSWORD) {
  const res = await call(server, apiCalls.login, { body: { email, password } });
  if (!('token' in res.body)) throw new Error(`login asked for a second factor: ${res.text}`);
  return res.body;
}

/** A file of `size` bytes in the folder at `folderPath`, added through the FileTree seam (no bytes stored). */
export async function addFile(server: TestServer, folderPath: string, name: string, size: number, ownerId: string, seed = name): Promise<NodeRow> {
  const folder = await server.app.fileTree.resolve(folderPath);
  if (!folder) throw new Error(`no folder ${folderPath}`);
  const hash = crypto.createHash('sha256').update(seed).digest('hex');
  return server.app.fileTree.addFile(folder, { name, size, contentHash: hash, blobKey: hash, ownerId });
}

/** The reference count of a blob, by the seed its hash was made from. */
export async function refCount(server: TestServer, seed: string, backend = 'server'): Promise<number | undefined> {
  const hash = crypto.createHash('sha256').update(seed).digest('hex');
  const row = await server.app.db.selectFrom('blobs').select('ref_count').where('backend', '=', backend).where('hash', '=', hash).executeTakeFirst();
  return row?.ref_count;
}

/** A root folder's usage in bytes. */
export async function usageOf(server: HttpTarget, token: string, rootPath: string): Promise<number> {
  const res = await call(server, apiCalls.root_usage, { token });
  const root = res.body.roots.find((r) => r.path === rootPath);
  if (!root) throw new Error(`no root ${rootPath}`);
  return root.usage;
}

/** Names in a folder listing. */
export async function namesIn(server: HttpTarget, token: string, path: string): Promise<string[]> {
  const res = await call(server, apiCalls.file_list, { token, query: { path } });
  return res.body.items.map((i) => i.name);
}
