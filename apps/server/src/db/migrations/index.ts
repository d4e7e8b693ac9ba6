import type { Migration } from 'kysely';
import * as initial from './20261122_0001_initial.js';
import * as signIn from './20261122_0002_sign_in.js';
import * as files from './20261122_0003_files.js';
import * as filesListing from './20261122_0004_files_listing.js';
import * as realtime from './20261122_0005_realtime.js';
import * as filesPerformance from './20261122_0006_files_performance.js';

/**
 * Every migration, in order. Listed by hand (not read from the directory) so the
 * bundled server carries them; names sort by their timestamp prefix.
 */
export const migrations: Record<string, Migration> = {
  '20261122_0001_initial': initial,
  '20261122_0002_sign_in': signIn,
  '20261122_0003_files': files,
  '20261122_0004_files_listing': filesListing,
  '20261122_0005_realtime': realtime,
  '20261122_0006_files_performance': filesPerformance,
};
