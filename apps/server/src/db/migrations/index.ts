import type { Migration } from 'kysely';
import * as initial from './20261122_0001_initial.js';

/**
 * Every migration, in order. Listed by hand (not read from the directory) so the
 * bundled server carries them; names sort by their timestamp prefix.
 */
export const migrations: Record<string, Migration> = {
  '20261122_0001_initial': initial,
};
