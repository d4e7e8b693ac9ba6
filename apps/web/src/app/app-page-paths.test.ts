import { APP_PAGE_PATHS } from '@bogwan/contracts';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The server answers 200 only on APP_PAGE_PATHS (404 elsewhere): the router's pages and
// that list must be the same, or a real page would answer 404 (or a dead one 200).
describe('the app page list the server uses', () => {
  it('holds exactly the paths the router declares', () => {
    const source = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'router.tsx'), 'utf8');
    const declared = [...source.matchAll(/\bpath: '([^']+)'/g)].map((m) => m[1]).filter((path) => path !== '*');
    expect([...declared].sort()).toEqual([...APP_PAGE_PATHS].sort());
  });
});
