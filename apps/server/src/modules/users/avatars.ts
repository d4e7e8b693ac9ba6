import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AVATAR_SIZE } from '@bogwan/contracts';
import { badRequest } from '../../errors.js';

/** Public URL prefix of avatars: the name is a random key, so an avatar is found only through its account. */
export const AVATAR_URL_PREFIX = '/api/avatar/';
const KEY_PATTERN = /^[0-9a-f]{32}\.webp$/;
/** Decoded images larger than this many pixels are refused (decompression bombs). */
const MAX_INPUT_PIXELS = 40_000_000;

/**
 * Avatar images under `<data>/avatars`: re-encoded to a square WebP of AVATAR_SIZE pixels, which
 * drops EXIF and every other piece of metadata (location included) and any payload riding in
 * the original file.
 */
export class Avatars {
  constructor(private readonly dir: string) {}

  /** Stores a new avatar; answers its public URL. Anything that does not decode as an image is 400. */
  async store(input: Buffer): Promise<string> {
    // Loaded with the first avatar: the image library is ~14 MiB of a server's memory.
    const { default: sharp } = await import('sharp');
    let output: Buffer;
    try {
      output = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
        .rotate()
        .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' })
        .webp({ quality: 85 })
        .toBuffer();
    } catch {
      throw badRequest('profile_image_only');
    }
    const key = `${randomBytes(16).toString('hex')}.webp`;
    await fs.mkdir(this.dir, { recursive: true });
    const temp = path.join(this.dir, `.${key}.tmp`);
    await fs.writeFile(temp, output);
    await fs.rename(temp, path.join(this.dir, key));
    return `${AVATAR_URL_PREFIX}${key}`;
  }

  /** Removes the file behind an avatar URL (no-op for anything else). */
  async remove(url: string | null): Promise<void> {
    const key = url?.startsWith(AVATAR_URL_PREFIX) ? url.slice(AVATAR_URL_PREFIX.length) : null;
    if (!key || !KEY_PATTERN.test(key)) return;
    await fs.rm(path.join(this.dir, key), { force: true });
  }

  /** The bytes of an avatar by its key, or null. */
  async read(key: string): Promise<Buffer | null> {
    if (!KEY_PATTERN.test(key)) return null;
    try {
      return await fs.readFile(path.join(this.dir, key));
    } catch {
      return null;
    }
  }
}
