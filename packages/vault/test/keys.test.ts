// Key slots: new ones use argon2id; slots written with scrypt (repositories created
// before the switch) still open, and one repository can hold both kinds.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalBackend } from '../src/backend/local.js';
import { DEFAULT_KDF } from '../src/keys.js';
import { Repository } from '../src/repository.js';
import { tempDir, TEST_INIT } from './helpers.js';

const SMALL_ARGON2 = { kind: 'argon2id', m: 1024, t: 1, p: 1 } as const;

describe('key slots', () => {
  it('creates argon2id slots by default with the stored cost parameters', async () => {
    expect(DEFAULT_KDF).toEqual({ kind: 'argon2id', m: 64 * 1024, t: 3, p: 1 });
    const backend = new LocalBackend(path.join(await tempDir('keys'), 'repo'));
    const repo = await Repository.init(backend, 'pw one', { ...TEST_INIT, kdf: SMALL_ARGON2 });
    const [slot] = await repo.listKeys();
    expect(slot!.slot).toMatchObject({ kdf: 'argon2id', m: 1024, t: 1, p: 1 });
    expect((await Repository.open(backend, 'pw one')).config.id).toBe(repo.config.id);
    await expect(Repository.open(backend, 'pw two')).rejects.toThrow('wrong password');
  });

  it('still opens a repository whose slot uses scrypt, and mixes both kinds of slot', async () => {
    const backend = new LocalBackend(path.join(await tempDir('keys'), 'repo'));
    // The key slot format of repositories created before argon2id: kdf "scrypt", N, r, p.
    const repo = await Repository.init(backend, 'old password', { ...TEST_INIT, kdf: { N: 1024, r: 8, p: 1 } });
    const [old] = await repo.listKeys();
    expect(old!.slot).toMatchObject({ kdf: 'scrypt', N: 1024, r: 8, p: 1 });
    expect(old!.slot).not.toHaveProperty('m');

    await repo.addKey('new password', SMALL_ARGON2);
    expect((await Repository.open(backend, 'old password')).config.id).toBe(repo.config.id);
    expect((await Repository.open(backend, 'new password')).config.id).toBe(repo.config.id);
    await expect(Repository.open(backend, 'neither')).rejects.toThrow('wrong password');
  });

  it('derives different keys for different argon2id costs (the stored parameters matter)', async () => {
    const backend = new LocalBackend(path.join(await tempDir('keys'), 'repo'));
    await Repository.init(backend, 'pw', { ...TEST_INIT, kdf: SMALL_ARGON2 });
    const [file] = await backend.list('keys/');
    const slot = JSON.parse((await backend.get(file!.name)).toString('utf8'));
    // Tampering with the cost in the slot makes the password fail instead of weakening it.
    await backend.put(file!.name, Buffer.from(JSON.stringify({ ...slot, t: 2 })));
    await expect(Repository.open(backend, 'pw')).rejects.toThrow('wrong password');
  });

  it('a repository opened again answers as the first time: the same keys, a wrong password still refused, a damaged slot still refused', async () => {
    const backend = new LocalBackend(path.join(await tempDir('keys'), 'repo'));
    const repo = await Repository.init(backend, 'again pw', { ...TEST_INIT, kdf: SMALL_ARGON2 });
    const first = await Repository.open(backend, 'again pw');
    const second = await Repository.open(backend, 'again pw');
    expect(second.key.encKey.equals(repo.key.encKey)).toBe(true);
    expect(second.key.macKey.equals(first.key.macKey)).toBe(true);
    await expect(Repository.open(backend, 'again pw!')).rejects.toThrow('wrong password');
    // The same password on a slot with another salt derives its own key.
    const other = new LocalBackend(path.join(await tempDir('keys'), 'repo'));
    const otherRepo = await Repository.init(other, 'again pw', { ...TEST_INIT, kdf: SMALL_ARGON2 });
    expect((await Repository.open(other, 'again pw')).key.encKey.equals(otherRepo.key.encKey)).toBe(true);
    expect(otherRepo.key.encKey.equals(repo.key.encKey)).toBe(false);
    // A slot whose wrapped key was altered does not open, whatever was derived before.
    const [slot] = await repo.listKeys();
    const wrapped = Buffer.from(slot!.slot.wrapped, 'base64');
    wrapped[20]! ^= 1;
    await backend.put(`keys/${slot!.id}`, Buffer.from(JSON.stringify({ ...slot!.slot, wrapped: wrapped.toString('base64') })));
    await expect(Repository.open(backend, 'again pw')).rejects.toThrow('wrong password');
  });
});
