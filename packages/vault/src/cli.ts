// bogwan-vault: command-line access to a repository, enough to restore with the
// server gone. The password comes from BOGWAN_VAULT_PASSWORD.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openBackend } from './backend/open.js';
import { backup } from './backup.js';
import { check } from './check.js';
import { forget } from './forget.js';
import { blobCodecInUse } from './native.js';
import { prune } from './prune.js';
import { Repository } from './repository.js';
import { restore } from './restore.js';
import { withRepository } from './session.js';
import { listSnapshots } from './snapshot.js';
import { BackgroundWalk } from './background-walk.js';
import { nativeCodec } from './native.js';
import { NativeWalk } from './native-walk.js';

const HELP = `usage: bogwan-vault <command> --repo R [options]

  init --repo R [--pack-size BYTES] [--chunk-size BYTES]
                                         create a repository (chunk size: the average,
                                         a power of two; min is half, max eight times)
  backup --repo R [--full] [--checkpoint-interval SECONDS] PATH...
                                         back up paths; prints the snapshot id last
  snapshots --repo R                     list snapshots
  restore --repo R ID|latest --target DIR [--include PATH]...
  check --repo R [--read-data | --read-data-subset=N%]
  forget --repo R [--keep-last N] [--keep-daily N] [--keep-weekly N] [--keep-monthly N] [--dry-run]
  prune --repo R [--max-repack-size BYTES] [--dry-run]
  key list --repo R
  key add --repo R                       new password from BOGWAN_VAULT_NEW_PASSWORD
  key remove --repo R ID

R is a directory or s3://bucket/prefix (BOGWAN_VAULT_S3_ENDPOINT, AWS_ACCESS_KEY_ID,
AWS_SECRET_ACCESS_KEY, AWS_REGION). The password is read from BOGWAN_VAULT_PASSWORD.`;

function password(name = 'BOGWAN_VAULT_PASSWORD'): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
}

function count(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`not a count: ${value}`);
  return n;
}

// Ctrl-C or SIGTERM stops a backup or restore cleanly: a backup saves a checkpoint to
// resume from, a restore its journal. A second signal exits at once.
const stop = new AbortController();
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stop.signal.aborted) process.exit(130);
    console.error(`bogwan-vault: ${sig}, stopping (again to exit at once)`);
    stop.abort(new Error(`stopped by ${sig}`));
  });
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      repo: { type: 'string' },
      full: { type: 'boolean' },
      target: { type: 'string' },
      include: { type: 'string', multiple: true },
      'read-data': { type: 'boolean' },
      'read-data-subset': { type: 'string' },
      'keep-last': { type: 'string' },
      'keep-daily': { type: 'string' },
      'keep-weekly': { type: 'string' },
      'keep-monthly': { type: 'string' },
      'max-repack-size': { type: 'string' },
      'dry-run': { type: 'boolean' },
      'pack-size': { type: 'string' },
      'chunk-size': { type: 'string' },
      'checkpoint-interval': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...args] = positionals;
  if (values.help || !command) {
    console.log(HELP);
    return command || values.help ? 0 : 2;
  }
  const repoUrl = values.repo;
  if (!repoUrl) throw new Error('--repo is required');
  // Said when the JavaScript codec stands in for the native one (slower): the native one is the norm,
  // and an error stays the one line on stderr a script reads.
  const { codec, reason } = blobCodecInUse();
  if (reason) console.error(`bogwan-vault: blob codec: ${codec} (${reason})`);

  switch (command) {
    case 'init': {
      const backend = openBackend(repoUrl);
      const packSize = count(values['pack-size']);
      if (packSize !== undefined && (packSize < 64 * 1024 || packSize > 1024 * 1024 * 1024)) throw new Error('--pack-size must be between 64 KiB and 1 GiB');
      const avg = count(values['chunk-size']);
      if (avg !== undefined && (avg < 4096 || avg > 64 * 1024 * 1024 || (avg & (avg - 1)) !== 0))
        throw new Error('--chunk-size must be a power of two between 4 KiB and 64 MiB');
      const repo = await Repository.init(backend, password(), {
        ...(packSize !== undefined ? { packSize } : {}),
        ...(avg !== undefined ? { chunker: { min: avg / 2, avg, max: avg * 8 } } : {}),
      });
      await backend.close();
      console.log(`created repository ${repo.config.id.slice(0, 8)} at ${backend.location}`);
      return 0;
    }
    case 'backup': {
      if (args.length === 0) throw new Error('backup needs at least one PATH');
      const paths = args.map((p) => path.resolve(p));
      const interval = values['checkpoint-interval'];
      const seconds = interval === undefined ? undefined : Number(interval);
      if (seconds !== undefined && !(seconds > 0)) throw new Error(`bad --checkpoint-interval: ${interval}`);
      // The walk starts now, while the repository opens: on libuv's pool through the
      // native codec, or on a thread of its own.
      const codec = nativeCodec();
      const source = codec ? new NativeWalk(paths, codec) : new BackgroundWalk(paths);
      try {
        return await withRepository(repoUrl, password(), 'backup', false, async (repo) => {
          const { id, stats } = await backup(repo, source, {
            paths,
            full: values.full,
            signal: stop.signal,
            ...(seconds ? { checkpointEveryMs: seconds * 1000 } : {}),
          });
          console.log(`files: ${stats.files} (${stats.filesRead} read, ${stats.filesUnchanged} unchanged, ${stats.filesResumed} resumed), dirs: ${stats.dirs}`);
          console.log(`added: ${stats.bytesAdded} bytes in ${stats.blobsAdded} blobs, stored ${stats.bytesStored} bytes, ${stats.durationMs} ms`);
          console.log(id);
          return 0;
        });
      } finally {
        await source.close();
      }
    }
    case 'snapshots':
      return withRepository(repoUrl, password(), 'snapshots', false, async (repo) => {
        for (const { id, snapshot } of await listSnapshots(repo)) {
          const flag = snapshot.checkpoint ? ' (interrupted checkpoint)' : '';
          console.log(`${id.slice(0, 8)}  ${snapshot.time}  ${snapshot.host}  ${snapshot.paths.join(' ')}${flag}`);
        }
        return 0;
      });
    case 'restore': {
      const ref = args[0];
      if (!ref || !values.target) throw new Error('restore needs ID|latest and --target DIR');
      return withRepository(repoUrl, password(), 'restore', false, async (repo) => {
        const r = await restore(repo, ref, values.target!, { include: values.include, signal: stop.signal });
        console.log(`restored ${r.files} files (${r.filesSkipped} already in place), ${r.bytesWritten} bytes, ${r.packsRead} packs read`);
        for (const f of r.failed) console.error(`failed: ${f.path}: ${f.error}`);
        return r.failed.length === 0 ? 0 : 1;
      });
    }
    case 'check': {
      const subset = values['read-data-subset'];
      const percent = subset === undefined ? undefined : Number(subset.replace(/%$/, ''));
      if (percent !== undefined && !(percent > 0 && percent <= 100)) throw new Error(`bad --read-data-subset: ${subset}`);
      return withRepository(repoUrl, password(), 'check', false, async (repo) => {
        const r = await check(repo, { readData: values['read-data'], readDataSubsetPercent: percent });
        for (const w of r.warnings) console.log(`warning: ${w}`);
        for (const e of r.errors) console.error(`error: ${e}`);
        console.log(
          r.errors.length === 0 ? `no errors (${r.packsRead} packs, ${r.blobsRead} blobs read)` : `${r.errors.length} errors: the repository is damaged`,
        );
        return r.errors.length === 0 ? 0 : 1;
      });
    }
    case 'forget':
      return withRepository(repoUrl, password(), 'forget', false, async (repo) => {
        const plan = await forget(
          repo,
          {
            last: count(values['keep-last']),
            daily: count(values['keep-daily']),
            weekly: count(values['keep-weekly']),
            monthly: count(values['keep-monthly']),
          },
          values['dry-run'],
        );
        for (const s of plan.keep) console.log(`keep    ${s.id.slice(0, 8)}  ${s.snapshot.time}`);
        for (const s of plan.remove) console.log(`remove  ${s.id.slice(0, 8)}  ${s.snapshot.time}`);
        return 0;
      });
    case 'prune':
      return withRepository(repoUrl, password(), 'prune', true, async (repo) => {
        const r = await prune(repo, { maxRepackBytes: count(values['max-repack-size']), dryRun: values['dry-run'] });
        console.log(
          `packs: ${r.packsDeleted} deleted, ${r.packsRepacked} repacked, ${r.packsKept} kept, ${r.orphanPacksDeleted} orphans, ${r.leftoversDeleted} partial files; ${r.blobsRemoved} blobs and ${r.bytesFreed} bytes freed`,
        );
        return 0;
      });
    case 'key': {
      const [action, id] = args;
      const backend = openBackend(repoUrl);
      try {
        const repo = await Repository.open(backend, password());
        if (action === 'list') {
          for (const k of await repo.listKeys())
            console.log(`${k.id.slice(0, 8)}  ${k.slot.created}  ${k.slot.host}${k.slot.label ? `  ${k.slot.label}` : ''}`);
        } else if (action === 'add') {
          console.log(`added key ${(await repo.addKey(password('BOGWAN_VAULT_NEW_PASSWORD'))).slice(0, 8)}`);
        } else if (action === 'remove' && id) {
          const match = (await repo.listKeys()).filter((k) => k.id.startsWith(id));
          if (match.length !== 1) throw new Error(`no unique key slot ${id}`);
          await repo.removeKey(match[0]!.id);
          console.log(`removed key ${id}`);
        } else throw new Error('key needs list, add or remove ID');
        return 0;
      } finally {
        await backend.close();
      }
    }
    default:
      throw new Error(`unknown command "${command}" (see --help)`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`bogwan-vault: ${err.message}`);
    process.exit(err.name === 'DamagedBlobError' ? 3 : 1);
  },
);
