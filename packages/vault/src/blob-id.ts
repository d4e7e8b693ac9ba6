import { createHmac } from 'node:crypto';

// A module of its own: worker threads need the id and nothing else of the key handling
// (which loads the argon2 addon).

/** Keyed blob id: HMAC-SHA-256 of the plaintext. */
export function blobId(macKey: Buffer, data: Uint8Array): Buffer {
  return createHmac('sha256', macKey).update(data).digest();
}
