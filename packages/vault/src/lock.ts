import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Backend } from './backend/backend.js';

/** A lock file's content. Locks are leases: they expire unless refreshed. */
export interface LockRecord {
  host: string;
  pid: number;
  exclusive: boolean;
  operation: string;
  created: string;
  expires: string;
}

/** Lease timing; the defaults tolerate a few minutes of clock skew and slow stores. */
export interface LeaseOptions {
  leaseMs?: number;
  refreshMs?: number;
}

/** Default lease: 3 minutes, refreshed every minute. */
export const DEFAULT_LEASE_MS = 3 * 60_000;

/** Raised when another live process holds a conflicting lock. */
export class LockedError extends Error {
  constructor(record: LockRecord) {
    super(
      `repository is locked (${record.exclusive ? 'exclusive' : 'shared'}, ${record.operation}) by pid ${record.pid} on ${record.host} until ${record.expires}`,
    );
    this.name = 'LockedError';
  }
}

/**
 * Raised at a commit point when this process's lease ran out before it could be renewed
 * (the process was stopped or suspended, or the storage was away for that long): another
 * process may have taken the repository meanwhile (a prune may have removed packs this
 * run wrote), so nothing more is committed. Running the operation again is safe.
 */
export class LockLostError extends Error {
  constructor(operation: string, expired: string) {
    super(`the ${operation} lock on the repository lapsed at ${expired} before it could be renewed; stopped without committing (run it again)`);
    this.name = 'LockLostError';
  }
}

/** A lease counts as lost this long before it runs out: room for clock skew between hosts. */
const LEASE_MARGIN_MS = 30_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when a lock no longer binds: its lease ran out or its process is gone from this host. */
export function isStale(record: LockRecord, now = Date.now()): boolean {
  if (Date.parse(record.expires) < now) return true;
  return record.host === hostname() && record.pid !== process.pid && !alive(record.pid);
}

/** A held lock; call release() when done. */
export class Lock {
  private timer: NodeJS.Timeout | null = null;
  private name: string;
  /** Expiry written in the newest lock file that is known to be stored. */
  private heldUntil: number;

  private constructor(
    private readonly backend: Backend,
    private record: LockRecord,
    name: string,
    private readonly leaseMs: number,
  ) {
    this.name = name;
    this.heldUntil = Date.parse(record.expires);
  }

  /** Takes a shared or exclusive lock, removing stale locks on the way. */
  static async acquire(backend: Backend, operation: string, exclusive: boolean, lease: LeaseOptions = {}): Promise<Lock> {
    const leaseMs = lease.leaseMs ?? DEFAULT_LEASE_MS;
    const now = Date.now();
    const record: LockRecord = {
      host: hostname(),
      pid: process.pid,
      exclusive,
      operation,
      created: new Date(now).toISOString(),
      expires: new Date(now + leaseMs).toISOString(),
    };
    const name = `locks/${randomBytes(16).toString('hex')}`;
    await backend.put(name, Buffer.from(JSON.stringify(record)));
    // Write first, then look: two racing processes each see the other's lock.
    for (const file of await backend.list('locks/')) {
      if (file.name === name) continue;
      let other: LockRecord;
      try {
        other = JSON.parse((await backend.get(file.name)).toString('utf8')) as LockRecord;
      } catch {
        continue;
      }
      if (isStale(other)) {
        await backend.delete(file.name);
        continue;
      }
      if (exclusive || other.exclusive) {
        await backend.delete(name);
        throw new LockedError(other);
      }
    }
    const lock = new Lock(backend, record, name, leaseMs);
    lock.timer = setInterval(() => void lock.refresh().catch(() => {}), lease.refreshMs ?? Math.floor(leaseMs / 3));
    lock.timer.unref();
    return lock;
  }

  /** Extends the lease by writing a new lock file and removing the old one. */
  async refresh(): Promise<void> {
    const next = `locks/${randomBytes(16).toString('hex')}`;
    this.assertHeld(); // a lapsed lease is not renewed: another process may hold the repository now
    const record = { ...this.record, expires: new Date(Date.now() + this.leaseMs).toISOString() };
    await this.backend.put(next, Buffer.from(JSON.stringify(record)));
    this.record = record;
    this.heldUntil = Date.parse(record.expires);
    const old = this.name;
    this.name = next;
    await this.backend.delete(old);
  }

  /** Throws LockLostError unless the lease is safely in force (see LEASE_MARGIN_MS). */
  assertHeld(now = Date.now()): void {
    const margin = Math.min(LEASE_MARGIN_MS, this.leaseMs / 6);
    if (now >= this.heldUntil - margin) throw new LockLostError(this.record.operation, new Date(this.heldUntil).toISOString());
  }

  /** Stops refreshing and removes the lock file. */
  async release(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.backend.delete(this.name);
  }
}
