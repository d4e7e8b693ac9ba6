import { createCipheriv, createDecipheriv, createHmac, randomBytes, scrypt } from 'node:crypto';

/** The secrets of a repository, unwrapped from a key slot. */
export interface MasterKey {
  /** AES-256-GCM key for every blob and metadata file. */
  encKey: Buffer;
  /** HMAC-SHA-256 key for blob ids. */
  macKey: Buffer;
  /** Seed of the chunker's gear table, so boundaries differ between repositories. */
  chunkerSeed: Buffer;
}

/** scrypt cost parameters stored in each key slot. */
export interface KdfParams {
  N: number;
  r: number;
  p: number;
}

/** 2^17 × 8 × 128 B = 128 MiB and ~0.3 s here: costly to guess, quick to open. */
export const DEFAULT_KDF: KdfParams = { N: 1 << 17, r: 8, p: 1 };

/** One password's wrapping of the master key, stored as keys/<id>. */
export interface KeySlot {
  version: 1;
  kdf: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: string;
  wrapped: string;
  created: string;
  host: string;
  label?: string;
}

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

function deriveWrapKey(password: string, salt: Buffer, kdf: KdfParams): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const maxmem = 256 * kdf.N * kdf.r + 64 * 1024 * 1024;
    scrypt(password.normalize('NFC'), salt, 32, { ...kdf, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Wraps the master key under a password into a new key slot. */
export async function wrapMasterKey(
  key: MasterKey,
  password: string,
  kdf: KdfParams,
  host: string,
  label?: string,
): Promise<KeySlot> {
  const salt = randomBytes(32);
  const wrapKey = await deriveWrapKey(password, salt, kdf);
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', wrapKey, nonce);
  cipher.setAAD(SLOT_AD);
  const body = Buffer.concat([cipher.update(joinMaster(key)), cipher.final()]);
  const wrapped = Buffer.concat([nonce, body, cipher.getAuthTag()]);
  return {
    version: 1,
    kdf: 'scrypt',
    ...kdf,
    salt: salt.toString('base64'),
    wrapped: wrapped.toString('base64'),
    created: new Date().toISOString(),
    host,
    ...(label ? { label } : {}),
  };
}

/** Returns the master key if the password opens this slot, otherwise null. */
export async function unwrapMasterKey(slot: KeySlot, password: string): Promise<MasterKey | null> {
  const wrapKey = await deriveWrapKey(password, Buffer.from(slot.salt, 'base64'), slot);
  const wrapped = Buffer.from(slot.wrapped, 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', wrapKey, wrapped.subarray(0, 12));
    decipher.setAAD(SLOT_AD);
    decipher.setAuthTag(wrapped.subarray(wrapped.length - 16));
    const raw = Buffer.concat([decipher.update(wrapped.subarray(12, wrapped.length - 16)), decipher.final()]);
    return splitMaster(raw);
  } catch {
    return null;
  }
}

/** Keyed blob id: HMAC-SHA-256 of the plaintext. */
export function blobId(macKey: Buffer, data: Uint8Array): Buffer {
  return createHmac('sha256', macKey).update(data).digest();
}
