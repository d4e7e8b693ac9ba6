import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Compressor, decompress } from 'zstd-napi';

// Sealed layout: nonce(12) | AES-256-GCM( flag(1) | payload ) | tag(16).
// The flag says whether the payload is zstd; the associated data binds the
// ciphertext to its id, so a blob cannot be swapped for another in a pack.
const NONCE = 12;
const TAG = 16;
const RAW = 0;
const ZSTD = 1;

/** Bytes a sealed blob adds to its payload. */
export const SEAL_OVERHEAD = NONCE + 1 + TAG;

/** Raised when a blob fails authentication or its id does not match. */
export class DamagedBlobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DamagedBlobError';
  }
}

const compressors = new Map<number, Compressor>();

function compressWithZstd(data: Uint8Array, level = 3): Buffer {
  let compressor = compressors.get(level);
  if (!compressor) {
    compressor = new Compressor();
    compressor.setParameters({ compressionLevel: level });
    compressors.set(level, compressor);
  }
  return compressor.compress(data);
}

// Big blobs are first tried on probes: a 4 KiB piece from the middle of every 64 KiB,
// compressed at level 1. Random-looking data (media, archives, encrypted files) then skips
// compressing the whole blob for nothing, and a blob that mixes stretches (a disk image, a
// tar archive) is compressed when any stretch of it compresses: zstd keeps its random
// stretches as raw blocks of the frame. (Rounds 1–11 tried one 64 KiB sample from the
// middle, and stored a blob raw whose middle alone was random.) Same rule as
// native/codec.c.
export const PROBE = 4 * 1024;
export const PROBE_SPACING = 64 * 1024;
const PROBE_LEVEL = 1;
const PROBE_MUST_SAVE = 0.97;

/** Whether a blob is worth a full zstd pass (see PROBE). */
export function looksCompressible(data: Uint8Array): boolean {
  if (data.length < 4 * PROBE_SPACING) return true;
  for (let at = 0; at + PROBE <= data.length; at += PROBE_SPACING) {
    const from = at + Math.floor(Math.min(PROBE_SPACING, data.length - at) / 2) - PROBE / 2;
    if (compressWithZstd(data.subarray(from, from + PROBE), PROBE_LEVEL).length < PROBE * PROBE_MUST_SAVE) return true;
  }
  return false;
}

/**
 * Compresses when it saves space, then encrypts with the id as associated data. Answers
 * the sealed blob in the pieces it is made of (nonce and flag, the encrypted payload, the
 * tag), which go into a pack one after another: joining them would cost another buffer
 * of the blob's size.
 */
export function sealBlobParts(encKey: Uint8Array, id: Uint8Array, data: Uint8Array, tryCompress = true): Buffer[] {
  let payload: Uint8Array = data;
  let flag = RAW;
  // Tiny payloads gain nothing; zstd's frame costs more than it saves.
  if (tryCompress && data.length >= 64 && looksCompressible(data)) {
    const packed = compressWithZstd(data);
    if (packed.length < data.length) {
      payload = packed;
      flag = ZSTD;
    }
  }
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv('aes-256-gcm', encKey, nonce);
  cipher.setAAD(id);
  const head = Buffer.concat([nonce, cipher.update(Buffer.of(flag))]);
  const body = cipher.update(payload);
  // GCM is a stream mode: final() adds no bytes (an empty piece), only the tag.
  const tail = cipher.final();
  return [head, body, tail, cipher.getAuthTag()];
}

/** The sealed blob (sealBlobParts) in one buffer. */
export function sealBlob(encKey: Uint8Array, id: Uint8Array, data: Uint8Array, tryCompress = true): Buffer {
  return Buffer.concat(sealBlobParts(encKey, id, data, tryCompress));
}

/** Decrypts and decompresses a sealed blob; throws DamagedBlobError on any tampering. */
export function openBlob(encKey: Uint8Array, id: Uint8Array, sealed: Uint8Array): Buffer {
  if (sealed.length < SEAL_OVERHEAD) throw new DamagedBlobError('blob too short');
  let plain: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-gcm', encKey, sealed.subarray(0, NONCE));
    decipher.setAAD(id);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
    plain = decipher.update(sealed.subarray(NONCE, sealed.length - TAG));
    // GCM is a stream mode: final() only checks the tag and returns nothing more.
    const rest = decipher.final();
    if (rest.length > 0) plain = Buffer.concat([plain, rest]);
  } catch {
    throw new DamagedBlobError('blob failed authentication');
  }
  const flag = plain[0];
  const payload = plain.subarray(1);
  if (flag === RAW) return payload;
  if (flag === ZSTD) return decompress(payload);
  throw new DamagedBlobError('unknown blob encoding');
}

/** Encrypts a metadata file (config, index, snapshot) bound to its kind. */
export function sealFile(encKey: Uint8Array, kind: string, data: Uint8Array): Buffer {
  return sealBlob(encKey, Buffer.from(`file:${kind}`), data, true);
}

/** Opens a metadata file sealed with sealFile. */
export function openFile(encKey: Uint8Array, kind: string, sealed: Uint8Array): Buffer {
  return openBlob(encKey, Buffer.from(`file:${kind}`), sealed);
}
