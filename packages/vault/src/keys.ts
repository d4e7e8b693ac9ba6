import { createCipheriv, createDecipheriv, createHmac, randomBytes, scrypt } from 'node:crypto';
import { hashRaw } from '@node-rs/argon2';

/** The secrets of a repository, unwrapped from a key slot. */
export interface MasterKey {
  /** AES-256-GCM key for every blob and metadata file. */
  encKey: Buffer;
  /** HMAC-SHA-256 key for blob ids. */
  macKey: Buffer;
  /** Seed of the chunker's gear table, so boundaries differ between repositories. */
  chunkerSeed: Buffer;
}

/** scrypt cost parameters (repositories created before argon2id; still accepted). */
export interface ScryptParams {
  kind?: 'scrypt';
  N: number;
  r: number;
  p: number;
}

/** argon2id cost parameters: memory in KiB, passes, lanes. */
export interface Argon2Params {
  kind: 'argon2id';
  m: number;
  t: number;
  p: number;
}

/** Key derivation parameters, stored in each key slot. */
export type KdfParams = ScryptParams | Argon2Params;

/**
 * argon2id, 64 MiB × 3 passes (RFC 9106's second recommendation, one lane): about as
 * much memory traffic per guess as the former scrypt N=2^17 r=8 (2 × 128 MiB) with half
 * the peak memory, ~0.2 s here.
 */
export const DEFAULT_KDF: KdfParams = { kind: 'argon2id', m: 64 * 1024, t: 3, p: 1 };

type SlotKdfFields = { kdf: 'scrypt'; N: number; r: number; p: number } | { kdf: 'argon2id'; m: number; t: number; p: number };

/** One password's wrapping of the master key, stored as keys/<id>. */
export type KeySlot = {
  version: 1;
  salt: string;
  wrapped: string;
  created: string;
  host: string;
  label?: string;
} & SlotKdfFields;

const SLOT_AD = Buffer.from('bogwan-vault key slot v1');
const MASTER_LENGTH = 96;

/** Thrown when no key slot opens with the given password. */
export class WrongPasswordError extends Error {
  constructor() {
    super('wrong password or no key slot matches');
    this.name = 'WrongPasswordError';
  }
}

/** Creates fresh random repository secrets. */
export function newMasterKey(): MasterKey {
  return splitMaster(randomBytes(MASTER_LENGTH));
}

function splitMaster(raw: Buffer): MasterKey {
  return { encKey: raw.subarray(0, 32), macKey: raw.subarray(32, 64), chunkerSeed: raw.subarray(64, 96) };
}

function joinMaster(key: MasterKey): Buffer {
  return Buffer.concat([key.encKey, key.macKey, key.chunkerSeed]);
}

function slotKdf(slot: KeySlot): KdfParams {
  if (slot.kdf === 'argon2id') return { kind: 'argon2id', m: slot.m, t: slot.t, p: slot.p };
  if (slot.kdf === 'scrypt') return { kind: 'scrypt', N: slot.N, r: slot.r, p: slot.p };
  throw new Error(`key slot uses an unknown key derivation "${(slot as { kdf: string }).kdf}"`);
}

// @node-rs/argon2's Algorithm is an ambient const enum; 2 is its Argon2id.
const ARGON2ID = 2;

function slotFields(kdf: KdfParams): SlotKdfFields {
  return kdf.kind === 'argon2id' ? { kdf: 'argon2id', m: kdf.m, t: kdf.t, p: kdf.p } : { kdf: 'scrypt', N: kdf.N, r: kdf.r, p: kdf.p };
}

async function deriveWrapKey(password: string, salt: Buffer, kdf: KdfParams): Promise<Buffer> {
  const secret = password.normalize('NFC');
  if (kdf.kind === 'argon2id') {
    return hashRaw(secret, { algorithm: ARGON2ID, memoryCost: kdf.m, timeCost: kdf.t, parallelism: kdf.p, outputLen: 32, salt });
  }
  return new Promise((resolve, reject) => {
    const maxmem = 256 * kdf.N * kdf.r + 64 * 1024 * 1024;
    scrypt(secret, salt, 32, { N: kdf.N, r: kdf.r, p: kdf.p, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Wraps the master key under a password into a new key slot. */
export async function wrapMasterKey(key: MasterKey, password: string, kdf: KdfParams, host: string, label?: string): Promise<KeySlot> {
  const salt = randomBytes(32);
  const wrapKey = await deriveWrapKey(password, salt, kdf);
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', wrapKey, nonce);
  cipher.setAAD(SLOT_AD);
  const body = Buffer.concat([cipher.update(joinMaster(key)), cipher.final()]);
  const wrapped = Buffer.concat([nonce, body, cipher.getAuthTag()]);
  return {
    version: 1,
    ...slotFields(kdf),
    salt: salt.toString('base64'),
    wrapped: wrapped.toString('base64'),
    created: new Date().toISOString(),
    host,
    ...(label ? { label } : {}),
  };
}

/** Returns the master key if the password opens this slot, otherwise null. */
export async function unwrapMasterKey(slot: KeySlot, password: string): Promise<MasterKey | null> {
  const salt = Buffer.from(slot.salt, 'base64');
  const kdf = slotKdf(slot);
  const remembered = rememberedWrapKey(password, salt, kdf);
  const wrapKey = remembered.key ?? (await deriveWrapKey(password, salt, kdf));
  const wrapped = Buffer.from(slot.wrapped, 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', wrapKey, wrapped.subarray(0, 12));
    decipher.setAAD(SLOT_AD);
    decipher.setAuthTag(wrapped.subarray(wrapped.length - 16));
    const raw = Buffer.concat([decipher.update(wrapped.subarray(12, wrapped.length - 16)), decipher.final()]);
    remembered.keep(wrapKey);
    return splitMaster(raw);
  } catch {
    return null;
  }
}

// Wrap keys that opened a slot lately, so that a server opening the same repository again
// (a scheduled run, the restore wizard's calls) skips the key derivation: 64 MiB and ~0.2 s
// each time, on top of whatever the process holds then. The derivation is a pure function
// of password, salt and parameters, so a remembered key is exactly what it would give; only
// keys that unwrapped a slot are kept, and they are looked up by an HMAC under a secret of
// this process (never by the password).
const REMEMBER_FOR_MS = 2 * 60 * 60 * 1000;
const REMEMBER_AT_MOST = 16;
const rememberSecret = randomBytes(32);
const remembered = new Map<string, { key: Buffer; until: number }>();

function rememberedWrapKey(password: string, salt: Buffer, kdf: KdfParams): { key: Buffer | null; keep: (key: Buffer) => void } {
  const name = createHmac('sha256', rememberSecret).update(JSON.stringify(kdf)).update('\0').update(salt).update('\0').update(password).digest('hex');
  const now = Date.now();
  for (const [k, v] of remembered) if (v.until <= now) remembered.delete(k);
  const found = remembered.get(name);
  return {
    key: found ? found.key : null,
    keep: (key) => {
      remembered.delete(name);
      if (remembered.size >= REMEMBER_AT_MOST) remembered.delete(remembered.keys().next().value!);
      remembered.set(name, { key, until: now + REMEMBER_FOR_MS });
    },
  };
}

export { blobId } from './blob-id.js';
