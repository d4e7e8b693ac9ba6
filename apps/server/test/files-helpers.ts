import crypto from 'node:crypto';
import { newLocalUser } from '../src/modules/users/new-user.js';
import type { NodeRow } from '../src/modules/files/ports.js';
import { GOOD_PASSWORD, type HttpTarget, type TestServer } from './harness.js';

/** An account of the given role, inserted as the account screens will later create it, then signed in. */
export async function signInAs(server: TestServer, email: string, role: 'USER' | 'ADMIN' = 'USER') {
  const name = role === 'USER' ? '사용자' : '운영자';
  await server.app.db
    .insertInto('users')
    .values(await newLocalUser({ name, email, password: GOOD_PASSWORD, role }))
    .execute();
  const res = await server.request('POST', '/api/auth/login', { body: { email, password: GOOD_PASSWORD } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  return res.body as { user: { _id: string }; token: string };
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
  const res = await server.request('GET', '/api/file/root/usage', { token });
  const root = (res.body.roots as { path: string; usage: number }[]).find((r) => r.path === rootPath);
  if (!root) throw new Error(`no root ${rootPath}`);
  return root.usage;
}

/** Names in a folder listing. */
export async function namesIn(server: HttpTarget, token: string, path: string): Promise<string[]> {
  const res = await server.request('GET', `/api/file/list?path=${encodeURIComponent(path)}`, { token });
  if (res.status !== 200) throw new Error(`list ${path}: ${res.status} ${res.text}`);
  return (res.body.items as { name: string }[]).map((i) => i.name);
}
