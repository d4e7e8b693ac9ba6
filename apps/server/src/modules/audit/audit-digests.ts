import fs from 'node:fs';
import path from 'node:path';
import { recordHash } from './audit-chain.js';
import type { AuditChainRepo } from './audit-chain.repo.js';

/** `<dataDir>/audit/digests.log`: the digests written out of the database, one per line. */
export function digestFilePath(dataDir: string): string {
  return path.join(dataDir, 'audit', 'digests.log');
}

/** A line of the digest file. */
export type DigestLine = { kind: 'digest'; day: string; lastSeq: number; headHash: string } | { kind: 'anchor'; seq: number; hash: string; at: string };

/** Appends one line to the digest file (created 0600 in a 0700 directory), synced to disk. */
export function appendDigestLine(file: string, line: DigestLine): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const text = line.kind === 'digest' ? `digest ${line.day} ${line.lastSeq} ${line.headHash}\n` : `anchor ${line.seq} ${line.hash} ${line.at}\n`;
  const fd = fs.openSync(file, 'a', 0o600);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The digest file's lines (none when there is no file); a line that is not understood is answered as an error. */
export function readDigestFile(file: string): { lines: DigestLine[]; errors: string[] } {
  if (!fs.existsSync(file)) return { lines: [], errors: [] };
  const lines: DigestLine[] = [];
  const errors: string[] = [];
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (text.trim() === '') return;
      const [kind, a, b, c] = text.trim().split(' ');
      const hash = /^[0-9a-f]{64}$/;
      if (kind === 'digest' && a && /^\d{4}-\d{2}-\d{2}$/.test(a) && /^\d+$/.test(b ?? '') && hash.test(c ?? '')) {
        lines.push({ kind, day: a, lastSeq: Number(b), headHash: c! });
      } else if (kind === 'anchor' && /^\d+$/.test(a ?? '') && hash.test(b ?? '') && c) {
        lines.push({ kind, seq: Number(a), hash: b!, at: c });
      } else errors.push(`line ${i + 1} of ${file} is not a digest line`);
    });
  return { lines, errors };
}

const DAY_MS = 86_400_000;
const dayOf = (iso: string | number) => new Date(iso).toISOString().slice(0, 10);
const nextDay = (day: string) => dayOf(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS);

/**
 * Stores the digest of every finished UTC day with records not yet digested: the day's
 * last record and the chain's hash there, in `audit_digests` and as a line of the digest
 * file. Several processes may run it at once: the row is inserted once, and the process
 * that inserted it writes the line first. The records a new digest covers are checked first
 * (from the previous digest on): a broken stretch is not digested, and the task fails loudly
 * (the housekeeping log) until an operator looks. Then every process appends to its own file the
 * digests (and the retention anchor) it lacks, so the data directory of each machine keeps
 * a whole copy, made while the database still held what it digests. Answers the days this
 * call digested.
 */
export async function writeDailyDigests(chain: AuditChainRepo, file: string, now = new Date()): Promise<string[]> {
  const written = await digestFinishedDays(chain, file, now);
  await copyMissingLines(chain, file, now);
  return written;
}

async function digestFinishedDays(chain: AuditChainRepo, file: string, now: Date): Promise<string[]> {
  const today = dayOf(now.getTime());
  const lastDay = await chain.lastDigestDay();
  const firstAt = await chain.firstAt();
  let day = lastDay ? nextDay(lastDay) : firstAt ? dayOf(firstAt) : undefined;
  const written: string[] = [];
  if (!day) return written;
  const head = await chain.head();
  const anchor = { seq: head.anchorSeq - 1, hash: head.anchorHash };
  const lastDigest = await chain.lastDigest();
  let checkedUpTo = lastDigest && Number(lastDigest.last_seq) >= anchor.seq ? { seq: Number(lastDigest.last_seq), hash: lastDigest.head_hash } : anchor;
  while (day < today) {
    const last = (await chain.lastBefore(`${nextDay(day)}T00:00:00.000Z`)) ?? (head.anchorSeq > 1 ? anchor : undefined);
    if (last && Number(last.seq) > checkedUpTo.seq) {
      // A digest vouches for the records it covers: they are checked against the last digest first.
      await checkSegment(chain, checkedUpTo, Number(last.seq), day);
      checkedUpTo = { seq: Number(last.seq), hash: last.hash };
    }
    if (last && (await chain.insertDigest(day, Number(last.seq), last.hash))) {
      appendDigestLine(file, { kind: 'digest', day, lastSeq: Number(last.seq), headHash: last.hash });
      written.push(day);
    }
    // Days without records add nothing to check: the next digest is of the next day that has one.
    const following = await chain.firstAtAfter(last ? Number(last.seq) : 0);
    if (!following) break;
    const next = nextDay(day);
    day = dayOf(following) > next ? dayOf(following) : next;
  }
  return written;
}

/** Throws (naming the record) unless the records after `from` up to `uptoSeq` follow each other and their hashes. */
async function checkSegment(chain: AuditChainRepo, from: { seq: number; hash: string }, uptoSeq: number, day: string): Promise<void> {
  let expected = from.seq + 1;
  let prev = from.hash;
  while (expected <= uptoSeq) {
    const rows = await chain.recordsAfter(expected - 1, 2000, uptoSeq);
    if (rows.length === 0) break;
    for (const r of rows) {
      if (Number(r.seq) !== expected || r.prev_hash !== prev || recordHash(r) !== r.hash) {
        throw new Error(`audit trail broken at record ${expected}: the digest of ${day} is not written (run bogwan audit verify)`);
      }
      prev = r.hash;
      expected += 1;
    }
  }
  if (expected !== uptoSeq + 1) throw new Error(`audit trail broken at record ${expected}: the digest of ${day} is not written (run bogwan audit verify)`);
}

/** Appends the database's digests and retention anchor that this file does not hold yet. */
async function copyMissingLines(chain: AuditChainRepo, file: string, now: Date): Promise<void> {
  const { lines } = readDigestFile(file);
  const days = new Set(lines.flatMap((l) => (l.kind === 'digest' ? [l.day] : [])));
  for (const d of await chain.digests()) {
    if (!days.has(d.day)) appendDigestLine(file, { kind: 'digest', day: d.day, lastSeq: Number(d.last_seq), headHash: d.head_hash });
  }
  const head = await chain.findHead();
  if (head && head.anchorSeq > 1 && !lines.some((l) => l.kind === 'anchor' && l.seq === head.anchorSeq && l.hash === head.anchorHash)) {
    appendDigestLine(file, { kind: 'anchor', seq: head.anchorSeq, hash: head.anchorHash, at: now.toISOString() });
  }
}
