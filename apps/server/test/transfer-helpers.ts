import { createHash, randomBytes } from 'node:crypto';
import { CHUNK_SIZE } from '@bogwan/contracts';
import type { HttpTarget, TestResponse } from './harness.js';

/** `size` deterministic pseudo-random bytes (different per seed). */
export function bytesOf(size: number, seed = 'seed'): Buffer {
  const out = Buffer.alloc(size);
  let block = createHash('sha256').update(seed).digest();
  for (let i = 0; i < size; i += 32) {
    block = createHash('sha256').update(block).digest();
    block.copy(out, i);
  }
  return out;
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export interface ChunkRequest {
  path: string;
  fileName: string;
  fileSize: number;
  chunkIndex: number;
  totalChunks: number;
  isLastChunk?: boolean;
  bytes: Buffer;
  /** Fields sent as given, replacing the computed ones (for bad input). */
  fields?: Record<string, string>;
}

/**
 * Sends one chunk as the web client does: the fields first, then the file part. Raw on
 * purpose: it answers refusals as well as successes (callers assert the status), and
 * bad-input tests send fields the chunk contract refuses.
 */
export async function sendChunk(server: HttpTarget, token: string, chunk: ChunkRequest): Promise<TestResponse> {
  const form = new FormData();
  const fields: Record<string, string> = {
    fileName: chunk.fileName,
    path: chunk.path,
    userId: 'someone-else',
    chunkIndex: String(chunk.chunkIndex),
    totalChunks: String(chunk.totalChunks),
    isLastChunk: String(chunk.isLastChunk ?? chunk.chunkIndex === chunk.totalChunks - 1),
    fileSize: String(chunk.fileSize),
    ...chunk.fields,
  };
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([chunk.bytes]), 'blob');
  const res = await fetch(`${server.url}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body, text, cookies: {} };
}

/**
 * A chunk's multipart body as the web client sends it (fields first, then the file part),
 * in the pieces around the file's bytes: for requests written by hand, e.g. stalled halfway.
 */
export function chunkMultipart(chunk: ChunkRequest): { contentType: string; head: string; tail: string } {
  const boundary = `----bogwan-${randomBytes(8).toString('hex')}`;
  const fields: Record<string, string> = {
    fileName: chunk.fileName,
    path: chunk.path,
    chunkIndex: String(chunk.chunkIndex),
    totalChunks: String(chunk.totalChunks),
    isLastChunk: String(chunk.isLastChunk ?? chunk.chunkIndex === chunk.totalChunks - 1),
    fileSize: String(chunk.fileSize),
    ...chunk.fields,
  };
  let head = '';
  for (const [name, value] of Object.entries(fields)) head += `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  head += `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="blob"\r\ncontent-type: application/octet-stream\r\n\r\n`;
  return { contentType: `multipart/form-data; boundary=${boundary}`, head, tail: `\r\n--${boundary}--\r\n` };
}

/** Uploads a whole buffer chunk by chunk (in order), with extra `fields` on each chunk; answers the last answer. */
export async function upload(
  server: HttpTarget,
  token: string,
  path: string,
  fileName: string,
  data: Buffer,
  fields?: Record<string, string>,
): Promise<TestResponse> {
  const total = Math.max(1, Math.ceil(data.length / CHUNK_SIZE));
  let last: TestResponse | undefined;
  for (let i = 0; i < total; i++) {
    last = await sendChunk(server, token, {
      path,
      fileName,
      fileSize: data.length,
      chunkIndex: i,
      totalChunks: total,
      bytes: data.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE),
      fields,
    });
    if (last.status !== 200) return last;
  }
  return last!;
}

/** GET that keeps the body as bytes. */
export async function fetchBytes(server: HttpTarget, token: string, urlPath: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + urlPath, { headers: { authorization: `Bearer ${token}`, ...headers } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

export interface ZipEntry {
  name: string;
  utf8: boolean;
  data: Buffer;
}

/** Reads a zip's central directory and its stored (uncompressed) entries. */
export function readZip(zip: Buffer): ZipEntry[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('no end of central directory');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('bad central directory entry');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (method !== 0) throw new Error(`entry ${name} is compressed`);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    entries.push({ name, utf8: (flags & 0x800) !== 0, data: zip.subarray(dataStart, dataStart + compressed) });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
