import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AVATAR_SIZE } from '@bogwan/contracts';
import { badRequest } from '../../errors.js';
import type { AvatarsRepo } from './avatars.repo.js';

/** Public URL prefix of avatars: the name is a random key, so an avatar is found only through its account. */
export const AVATAR_URL_PREFIX = '/api/avatar/';
const KEY_PATTERN = /^[0-9a-f]{32}\.webp$/;
/** Decoded images larger than this many pixels are refused (decompression bombs). */
const MAX_INPUT_PIXELS = 40_000_000;

/**
 * Avatar images, re-encoded to a square WebP of AVATAR_SIZE pixels, which drops EXIF and
 * every other piece of metadata (location included) and any payload riding in the original
 * file. Kept in the database, so every server process serves them (a process's own data
 * directory is not shared); those an earlier version wrote to `<data>/avatars` are moved in.
 */
export class Avatars {
  constructor(
    private readonly repo: AvatarsRepo,
    /** Where earlier versions kept avatar files (`<data>/avatars`). */
    private readonly legacyDir: string,
  ) {}

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
    await this.repo.insert(key, output);
    return `${AVATAR_URL_PREFIX}${key}`;
  }

  /** Removes the file behind an avatar URL (no-op for anything else). */
  async remove(url: string | null): Promise<void> {
    const key = url?.startsWith(AVATAR_URL_PREFIX) ? url.slice(AVATAR_URL_PREFIX.length) : null;
    if (!key || !KEY_PATTERN.test(key)) return;
    await this.repo.delete(key);
  }

  /** The bytes of an avatar by its key, or null. */
  async read(key: string): Promise<Buffer | null> {
    if (!KEY_PATTERN.test(key)) return null;
    return this.repo.find(key);
  }

  /**
   * Moves avatar files of an earlier version from `<data>/avatars` into the database (each
   * file is removed once stored); answers how many. Safe to run on every start.
   */
  async importLegacyFiles(): Promise<number> {
    const names = await fs.readdir(this.legacyDir).catch(() => [] as string[]);
    let moved = 0;
    for (const name of names) {
      const file = path.join(this.legacyDir, name);
      if (KEY_PATTERN.test(name)) {
        await this.repo.insert(name, await fs.readFile(file));
        moved++;
      }
      // What is left is a stored avatar or a half-written temporary file of the old writer.
      if (KEY_PATTERN.test(name) || name.endsWith('.tmp')) await fs.rm(file, { force: true });
    }
    await fs.rmdir(this.legacyDir).catch(() => undefined);
    return moved;
  }
}
