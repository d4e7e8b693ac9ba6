import { AUDIT_RETENTION_MIN_YEARS } from '@bogwan/contracts';
import { recordHash } from './audit-chain.js';
import type { AuditChainRepo } from './audit-chain.repo.js';
import { type DigestLine, readDigestFile } from './audit-digests.js';

/** What `bogwan audit verify` found: OK, or the first broken record (seq and time) and why. */
export interface VerifyResult {
  ok: boolean;
  /** The first broken record, when not ok. */
  broken?: { seq: number; at: string | null; reason: string };
  checked: number;
  warnings: string[];
  lines: string[];
}

const BATCH = 2000;

/**
 * Recomputes the chain from the anchor (the genesis hash, or after a purge the hash the
 * first kept record follows), then checks the chain head and every digest, in the
 * database and in the digest file, against the recomputed hashes. The file is written
 * outside the database, so rewriting rows and their hashes in the database cannot also
 * rewrite what the file holds for days already digested.
 */
export async function verifyAuditTrail(chain: AuditChainRepo, digestFile: string | undefined, now = new Date()): Promise<VerifyResult> {
  const result = await verifyChain(chain, digestFile, now);
  const broken = result.broken;
  if (!broken || broken.at !== null || broken.seq < 1) return result;
  // A failure found through a digest or the row ranges: name the record's time when it is still there.
  const at = (await chain.record(broken.seq))?.at ?? null;
  if (at === null) return result;
  return { ...result, broken: { ...broken, at }, lines: [...result.lines.slice(0, -1), brokenLine(broken.seq, at, broken.reason)] };
}

const brokenLine = (seq: number, at: string | null, reason: string) => `audit trail BROKEN at record ${seq}${at ? ` (${at})` : ''}: ${reason}`;

async function verifyChain(chain: AuditChainRepo, digestFile: string | undefined, now: Date): Promise<VerifyResult> {
  const head = await chain.findHead();
  if (!head) {
    const reason = 'the chain head (table audit_chain, row main) is missing: it was deleted';
    return { ok: false, broken: { seq: 0, at: null, reason }, checked: 0, warnings: [], lines: [`audit trail BROKEN: ${reason}`] };
  }
  const dbDigests = await chain.digests();
  const file = digestFile ? readDigestFile(digestFile) : { lines: [] as DigestLine[], errors: [] };
  const warnings = [...file.errors];
  const fileDigests = file.lines.filter((l): l is Extract<DigestLine, { kind: 'digest' }> => l.kind === 'digest');
  const wanted = new Set<number>([...dbDigests.map((d) => Number(d.last_seq)), ...fileDigests.map((d) => d.lastSeq)]);
  const hashAt = new Map<number, string>();
  if (head.anchorSeq > 1) hashAt.set(head.anchorSeq - 1, head.anchorHash);

  const fail = (seq: number, at: string | null, reason: string, checked: number): VerifyResult => ({
    ok: false,
    broken: { seq, at, reason },
    checked,
    warnings,
    lines: [...warnings.map((w) => `warning: ${w}`), brokenLine(seq, at, reason)],
  });

  let expected = head.anchorSeq;
  let prev = head.anchorHash;
  let checked = 0;
  let lastAt: string | null = null;
  for (;;) {
    // Up to the head read above: records appended meanwhile (the server keeps running) are the next run's.
    const rows = await chain.recordsAfter(expected - 1, BATCH, head.seq);
    if (rows.length === 0) break;
    for (const r of rows) {
      const seq = Number(r.seq);
      if (seq !== expected) return fail(expected, lastAt, `record ${expected} is missing (the next one kept is ${seq}, written ${r.at})`, checked);
      if (r.prev_hash !== prev)
        return fail(seq, r.at, 'its link to the record before it does not match (a record before it was changed, removed or inserted)', checked);
      if (recordHash(r) !== r.hash) return fail(seq, r.at, 'its content does not match its hash (the record was changed)', checked);
      if (wanted.has(seq)) hashAt.set(seq, r.hash);
      prev = r.hash;
      lastAt = r.at;
      expected += 1;
      checked += 1;
    }
  }
  if (expected - 1 !== head.seq || prev !== head.hash) {
    return fail(
      expected,
      lastAt,
      `the chain ends at record ${expected - 1} but its head names record ${head.seq} (records at the end were removed, or the head was changed)`,
      checked,
    );
  }

  // Rows outside the chain: an append moves the head in its own transaction, so the highest
  // seq read before the head is read again can never be past it; a purge moves the anchor in
  // the transaction that deletes, so no row is below the anchor read before it.
  const range = await chain.seqRange();
  const headNow = await chain.findHead();
  if (range && headNow && range.max > headNow.seq) {
    return fail(
      headNow.seq + 1,
      null,
      `records ${headNow.seq + 1} to ${range.max} lie past the chain head (they were inserted without being chained)`,
      checked,
    );
  }
  if (range && range.min < head.anchorSeq) {
    return fail(range.min, null, `record ${range.min} lies before the chain's first record ${head.anchorSeq} (it was inserted without being chained)`, checked);
  }

  const checkDigest = (where: string, day: string, lastSeq: number, hash: string): VerifyResult | undefined => {
    if (lastSeq < head.anchorSeq - 1) return undefined; // a day whose records were purged by retention
    if (lastSeq > head.seq)
      return fail(lastSeq, null, `the ${where} digest of ${day} names record ${lastSeq}, past the end of the chain (records were removed)`, checked);
    if (hashAt.get(lastSeq) !== hash)
      return fail(lastSeq, null, `the ${where} digest of ${day} does not match the chain at record ${lastSeq} (records up to it were rewritten)`, checked);
    return undefined;
  };
  for (const d of dbDigests) {
    const bad = checkDigest('database', d.day, Number(d.last_seq), d.head_hash);
    if (bad) return bad;
  }
  const dbByDay = new Map(dbDigests.map((d) => [d.day, d]));
  for (const d of fileDigests) {
    const bad = checkDigest('file', d.day, d.lastSeq, d.headHash);
    if (bad) return bad;
    const inDb = dbByDay.get(d.day);
    if (!inDb || Number(inDb.last_seq) !== d.lastSeq || inDb.head_hash !== d.headHash) {
      return fail(d.lastSeq, null, `the digest of ${d.day} in the file is missing from the database or differs from it`, checked);
    }
  }
  // A purge removes only records older than the retention, and no retention is shorter than
  // a year: records the file dates to the last year cannot have been purged, only deleted.
  if (head.anchorSeq > 1) {
    const lastRemoved = head.anchorSeq - 1;
    const youngest = new Date(now.getTime());
    youngest.setUTCFullYear(youngest.getUTCFullYear() - AUDIT_RETENTION_MIN_YEARS);
    const day = fileDigests
      .filter((d) => d.lastSeq >= lastRemoved)
      .map((d) => d.day)
      .sort()[0];
    if (day && day > youngest.toISOString().slice(0, 10)) {
      return fail(
        head.anchorSeq,
        null,
        `records up to ${lastRemoved} are gone, but the digest file dates them to ${day}, within the shortest retention (${AUDIT_RETENTION_MIN_YEARS} year): they were deleted, not purged`,
        checked,
      );
    }
  }
  if (digestFile) {
    const inFile = new Set(fileDigests.map((d) => d.day));
    const missing = dbDigests.filter((d) => !inFile.has(d.day)).length;
    if (missing > 0)
      warnings.push(`${missing} digest(s) of the database are not in ${digestFile} yet (each server process copies them into its data directory hourly)`);
    if (head.anchorSeq > 1 && !file.lines.some((l) => l.kind === 'anchor' && l.seq === head.anchorSeq && l.hash === head.anchorHash)) {
      warnings.push(`the retention anchor (record ${head.anchorSeq}) is not in ${digestFile}`);
    }
  }
  const digestCount = dbDigests.length + fileDigests.length;
  return {
    ok: true,
    checked,
    warnings,
    lines: [
      ...warnings.map((w) => `warning: ${w}`),
      `audit trail OK: ${checked} records${checked > 0 ? ` (${head.anchorSeq} to ${head.seq})` : ''}, ${digestCount} digests checked (${fileDigests.length} from the file)`,
    ],
  };
}
