import { badRequest } from '../../errors.js';
import type { HashTap } from './running-hash.js';

/** Bytes read before the file part's content (preamble, fields and part headers) at most. */
const MAX_HEAD = 256 * 1024;
/** At most this many fields before the file part, each value at most this many bytes. */
const MAX_FIELDS = 16;
const MAX_FIELD_BYTES = 8192;
/** A part's header section (content-disposition and friends) stays under this. */
const MAX_PART_HEADERS = 8192;
/** What may follow the file part (the closing `--`, an epilogue, parts nobody reads). */
const MAX_TRAILING = 64 * 1024;
/** A refusal waits for the rest of the body to be dropped up to this many bytes (a chunk and its framing). */
const MAX_AWAITED_DISCARD = 11 * 1024 * 1024;

const CRLF = Buffer.from('\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');

/** A chunk's file part longer or shorter than its declared size, or not closed where that size ends. */
export class ChunkLengthError extends Error {
  constructor(readonly tooLong: boolean) {
    super(tooLong ? 'chunk longer than expected' : 'chunk shorter than expected');
  }
}

/** Where one chunk's bytes come from: exactly `expected` of them, each piece also handed to `tap`. */
export interface ChunkSource {
  /** Fails with a ChunkLengthError when there are more or fewer bytes than `expected`. */
  file(expected: number, tap?: HashTap): AsyncIterable<Buffer>;
}

/** A chunk whose bytes are a whole stream (a spooled file's range), checked against the size expected. */
export function chunkOf(bytes: AsyncIterable<Buffer>): ChunkSource {
  return {
    async *file(expected, tap) {
      let seen = 0;
      for await (const piece of bytes) {
        seen += piece.length;
        if (seen > expected) throw new ChunkLengthError(true);
        tap?.(piece);
        yield piece;
      }
      if (seen < expected) throw new ChunkLengthError(false);
    },
  };
}

/**
 * The multipart body of one upload chunk, read straight off the request. The fields come
 * first and are parsed before a byte of the file is read; the file part is then handed on
 * piece by piece as the socket delivers it, with no stream layer in between, and framed by
 * the size the fields declare: exactly that many bytes, then the closing delimiter
 * (docs/decisions.md, "Files: transfer"). Whatever follows the file part is read and
 * dropped. Until the file is asked for, nothing more is read, so the socket waits.
 */
export class ChunkBody implements ChunkSource {
  private constructor(
    private readonly source: AsyncIterator<Buffer>,
    /** `\r\n--boundary`: what ends every part. */
    private readonly delimiter: Buffer,
    /** The fields, by name (a name sent twice is left out, so the check of the fields fails). */
    readonly fields: Record<string, string>,
    /** File bytes already read with the head. */
    private rest: Buffer,
  ) {}

  /** Set once the rest of the body is being read and dropped. */
  private discarding: Promise<void> | undefined;

  /** Reads the fields and the file part's headers; a malformed body is refused with `upload_chunk_invalid`. */
  static async open(body: AsyncIterable<Buffer>, contentType: string | undefined): Promise<ChunkBody> {
    const boundary = boundaryOf(contentType);
    if (!boundary) throw badRequest('upload_chunk_invalid');
    const delimiter = Buffer.from(`\r\n--${boundary}`);
    const source = body[Symbol.asyncIterator]();
    // A leading CRLF lets the first delimiter match like every other one (a preamble before it is skipped).
    let head: Buffer = CRLF;
    let at = 0;
    const fields: Record<string, string> = Object.create(null);
    const named = new Set<string>();
    let count = 0;
    let read = 0;
    const more = async (): Promise<boolean> => {
      const next = await source.next();
      if (next.done) return false;
      // The preamble counts too: whatever comes before the file part stays under MAX_HEAD.
      read += next.value.length;
      if (read > MAX_HEAD) return false;
      head = Buffer.concat([head.subarray(at), next.value]);
      at = 0;
      return true;
    };
    const refuse = () => {
      void drain(source, 0);
      return badRequest('upload_chunk_invalid');
    };
    // Up to the first delimiter (the preamble is ignored).
    let found = head.indexOf(delimiter, at);
    while (found < 0) {
      at = Math.max(0, head.length - delimiter.length);
      if (!(await more())) throw refuse();
      found = head.indexOf(delimiter, at);
    }
    at = found + delimiter.length;
    for (;;) {
      // After a delimiter: `--` closes the body (no file part came); else padding, CRLF, headers.
      let headersEnd = head.indexOf(HEADERS_END, at);
      while (headersEnd < 0) {
        if (head.length - at > MAX_PART_HEADERS || (head.length - at >= 2 && head[at] === 0x2d && head[at + 1] === 0x2d)) throw refuse();
        if (!(await more())) throw refuse();
        headersEnd = head.indexOf(HEADERS_END, at);
      }
      const lineEnd = head.indexOf(CRLF, at);
      if (head.subarray(at, lineEnd).toString('latin1').trim() !== '' || headersEnd - at > MAX_PART_HEADERS) throw refuse();
      const part = dispositionOf(head.toString('utf8', lineEnd + 2, headersEnd));
      if (!part) throw refuse();
      at = headersEnd + HEADERS_END.length;
      if (part.file) return new ChunkBody(source, delimiter, fields, head.subarray(at));
      if (++count > MAX_FIELDS) throw refuse();
      let end = head.indexOf(delimiter, at);
      while (end < 0) {
        if (head.length - at > MAX_FIELD_BYTES + delimiter.length) throw refuse();
        if (!(await more())) throw refuse();
        end = head.indexOf(delimiter, at);
      }
      if (end - at > MAX_FIELD_BYTES) throw refuse();
      const value = head.toString('utf8', at, end);
      if (named.has(part.name)) delete fields[part.name];
      else fields[part.name] = value;
      named.add(part.name);
      at = end + delimiter.length;
    }
  }

  /**
   * The file part's bytes: exactly `expected` of them, each piece also given to `tap`. Fails
   * with a ChunkLengthError when the body ends sooner, or when the closing delimiter does
   * not follow right after them (the part is longer than declared).
   */
  async *file(expected: number, tap?: HashTap): AsyncGenerator<Buffer> {
    let seen = 0;
    let after: Buffer = Buffer.alloc(0);
    let piece: Buffer | undefined = this.rest;
    this.rest = Buffer.alloc(0);
    // The pieces passed within the part's last `MAX_TRAILING` + delimiter bytes (no copies):
    // where a part shorter than declared really ended, should the close not follow. Only
    // those, and dropped at the end: a request can outlive two young-generation collections,
    // and whatever an object moved to the old generation still points at stays in memory
    // until a full collection, ~64 MiB of pieces later (docs/decisions.md, "Files: transfer").
    const windowStart = expected - this.delimiter.length - MAX_TRAILING;
    const last: Buffer[] = [];
    const pass = (content: Buffer) => {
      const start = seen;
      seen += content.length;
      if (seen > windowStart) last.push(start >= windowStart ? content : content.subarray(windowStart - start));
      tap?.(content);
    };
    try {
      while (piece) {
        const room = expected - seen;
        if (piece.length <= room) {
          // Every piece but the last of the part goes on whole.
          if (piece.length > 0) {
            pass(piece);
            yield piece;
          }
        } else {
          if (room > 0) {
            const content = piece.subarray(0, room);
            pass(content);
            yield content;
          }
          after = Buffer.concat([after, piece.subarray(room, room + this.delimiter.length - after.length)]);
          if (after.length >= this.delimiter.length) break;
        }
        const next = await this.source.next();
        piece = next.done ? undefined : next.value;
      }
      if (seen < expected) throw new ChunkLengthError(false);
      if (!after.equals(this.delimiter)) {
        void this.discard();
        // The close inside the bytes taken: the part ended sooner than declared.
        const taken = Buffer.concat(last);
        const close = Buffer.concat([taken, after]).indexOf(this.delimiter);
        throw new ChunkLengthError(close < 0 || close >= taken.length);
      }
      // The closing `--`, or further parts nobody reads: dropped, up to a limit.
      let trailing = 0;
      for (let next = await this.source.next(); !next.done; next = await this.source.next()) {
        trailing += next.value.length;
        if (trailing > MAX_TRAILING) {
          void this.discard();
          throw new ChunkLengthError(true);
        }
      }
    } finally {
      // Nothing of the body stays referenced by this generator once it is done (see above).
      last.length = 0;
      piece = undefined;
    }
  }

  /**
   * Reads and drops the rest of the body (the answer is an error), so the request ends; once,
   * however often called. Resolves when the body has ended, or once more than a chunk's worth
   * has been dropped (the rest is still dropped): an answer sent while the client is still
   * sending makes Node close the connection after it, and the client sees a reset instead of
   * the answer.
   */
  discard(): Promise<void> {
    this.discarding ??= drain(this.source, MAX_AWAITED_DISCARD);
    return this.discarding;
  }
}

/** The boundary parameter of a multipart/form-data content type. */
function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const [type, ...params] = splitParams(contentType);
  if (type?.trim().toLowerCase() !== 'multipart/form-data') return undefined;
  const boundary = paramsOf(params).get('boundary');
  return boundary && boundary.length <= 70 ? boundary : undefined;
}

/** A part's `content-disposition`: its field name, and whether it carries a file. */
function dispositionOf(headers: string): { name: string; file: boolean } | undefined {
  for (const line of headers.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== 'content-disposition') continue;
    const [kind, ...params] = splitParams(line.slice(colon + 1));
    if (kind?.trim().toLowerCase() !== 'form-data') return undefined;
    const values = paramsOf(params);
    const name = values.get('name');
    if (name === undefined) return undefined;
    return { name, file: values.has('filename') || values.has('filename*') };
  }
  return undefined;
}

/** Splits a header value at the semicolons outside quoted strings. */
function splitParams(value: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (quoted && c === '\\' && i + 1 < value.length) {
      current += c + value[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ';' && !quoted) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

/** `key=value` parameters (names lower-cased, quotes and escapes removed). */
function paramsOf(params: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    const key = param.slice(0, eq).trim().toLowerCase();
    let value = param.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    out.set(key, value);
  }
  return out;
}

function drain(source: AsyncIterator<Buffer>, awaited: number): Promise<void> {
  return new Promise<void>((resolve) => {
    let dropped = 0;
    void (async () => {
      for (let next = await source.next(); !next.done; next = await source.next()) {
        dropped += next.value.length;
        if (dropped > awaited) resolve();
      }
    })()
      .catch(() => {})
      .finally(resolve);
  });
}
