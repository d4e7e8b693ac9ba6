import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/** Paths to remove when the test file running ends. */
const made: string[] = [];
// Registered when a test file first loads this module (each file loads its own copy).
afterAll(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Removes `dir` (if it exists by then) when the test file ends; answers it. */
export function removeAfterFile(dir: string): string {
  made.push(dir);
  return dir;
}

/** A fresh directory under the system's temporary directory, removed when the test file ends. */
export function scratchDir(prefix: string): string {
  return removeAfterFile(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}
