import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SettingsRepo } from '../settings/settings.repo.js';
import { SETUP_TOKEN_KEY } from './setup.repo.js';

/**
 * The one-time token that lets whoever reads the server's log or data directory
 * create the first account. Kept in the database so every server process agrees on
 * it, and written to `<data dir>/setup-token` for the operator.
 */
export class SetupToken {
  readonly file: string;

  constructor(
    private readonly settings: SettingsRepo,
    dataDir: string,
  ) {
    this.file = path.join(dataDir, 'setup-token');
  }

  /** True while the token is stored, i.e. until the first account exists. */
  async pending(): Promise<boolean> {
    return (await this.settings.get<string>(SETUP_TOKEN_KEY)) !== undefined;
  }

  /** Makes sure a token exists (the first process to ask creates it), writes the file, answers it. */
  async issue(): Promise<string> {
    const token = await this.settings.getOrInsert(SETUP_TOKEN_KEY, randomBytes(18).toString('base64url'));
    fs.writeFileSync(this.file, `${token}\n`, { mode: 0o600 });
    return token;
  }

  /** Constant-time comparison with the stored token. */
  async matches(candidate: string): Promise<boolean> {
    const expected = await this.settings.get<string>(SETUP_TOKEN_KEY);
    if (!expected) return false;
    const a = Buffer.from(candidate);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** Deletes the operator's copy once the first account exists. */
  removeFile(): void {
    fs.rmSync(this.file, { force: true });
  }
}
