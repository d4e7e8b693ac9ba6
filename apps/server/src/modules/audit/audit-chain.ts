import { createHash } from 'node:crypto';
import type { AuditRecordsTable } from '../../db/schema.js';

/** The prev_hash of the very first record of an installation. */
export const GENESIS_HASH = '0'.repeat(64);

/** A record as stored, without its own hash. */
export type UnhashedRecord = Omit<AuditRecordsTable, 'hash'>;

/**
 * SHA-256 (hex) over the record's canonical form, version 1: a JSON array of a version
 * tag and every column in a fixed order, `prev_hash` last. JSON keeps the field
 * boundaries unambiguous (no separator can be forged inside a value) and is the same on
 * every runtime. The legacy migration (20261127_1401) holds a frozen copy of this.
 */
export function recordHash(r: UnhashedRecord): string {
  const fields = [
    'bogwan-audit-v1',
    Number(r.seq),
    r.at,
    r.actor_kind,
    r.actor_id,
    r.actor_account_id,
    r.actor_label,
    r.action,
    r.outcome,
    r.reason,
    r.target_kind,
    r.target_id,
    r.target_path,
    r.target_label,
    r.params,
    r.ip,
    r.user_agent,
    r.prev_hash,
  ];
  return createHash('sha256').update(JSON.stringify(fields), 'utf8').digest('hex');
}
