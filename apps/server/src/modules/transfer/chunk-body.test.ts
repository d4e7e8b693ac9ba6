import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { ChunkBody, ChunkLengthError, chunkOf } from './chunk-body.js';

const BOUNDARY = '----WebKitFormBoundaryAbC123xyz';
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** A body as a browser's FormData sends it: the fields, then the file part, then the close. */
function formBody(fields: [string, string][], file: Buffer, { boundary = BOUNDARY, after = '' } = {}): Buffer {
  const head = fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('');
  return Buffer.concat([
    Buffer.from(`${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n${after}`),
  ]);
}

/** The bytes as pieces of the given sizes (the last piece takes the rest); counts the pieces taken. */
function source(bytes: Buffer, sizes: number[] | ((i: number) => number)) {
  const state = { pulled: 0, done: false };
  async function* pieces() {
    let at = 0;
    for (let i = 0; at < bytes.length; i++) {
      const size = typeof sizes === 'function' ? sizes(i) : (sizes[i] ?? bytes.length);
      state.pulled++;
      yield bytes.subarray(at, at + size);
      at += size;
    }
    state.done = true;
  }
  return { pieces: pieces(), state };
}

async function collect(iterable: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const piece of iterable) parts.push(Buffer.from(piece));
  return Buffer.concat(parts);
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).messageKey;
}

const FIELDS: [string, string][] = [
  ['fileName', '보고서 (최종).hwp'],
  ['path', '/팀/자료'],
  ['chunkIndex', '0'],
  ['totalChunks', '1'],
  ['isLastChunk', 'true'],
  ['fileSize', '5000'],
];

describe('ChunkBody', () => {
  it('reads the fields and exactly the file bytes, however the socket splits them', async () => {
    const file = randomBytes(5000);
    const body = formBody(FIELDS, file);
    const splits: (number[] | ((i: number) => number))[] = [[body.length], () => 1, () => 7, () => 1000, [600, 5, 4400], [body.length - 20, 3]];
    for (const sizes of splits) {
      const { pieces, state } = source(body, sizes);
      const chunk = await ChunkBody.open(pieces, TYPE);
      expect({ ...chunk.fields }).toEqual(Object.fromEntries(FIELDS));
      const tapped: Buffer[] = [];
      expect((await collect(chunk.file(5000, (piece) => tapped.push(Buffer.from(piece))))).equals(file)).toBe(true);
      expect(Buffer.concat(tapped).equals(file)).toBe(true);
      expect(state.done).toBe(true);
    }
  });

  it('reads no further than the file part headers until the file is asked for', async () => {
    const file = randomBytes(300_000);
    const { pieces, state } = source(formBody(FIELDS, file), () => 65536);
    const chunk = await ChunkBody.open(pieces, TYPE);
    expect(state.pulled).toBe(1);
    expect((await collect(chunk.file(300_000))).equals(file)).toBe(true);
    expect(state.done).toBe(true);
  });

  it('skips a preamble, transport padding and a quoted boundary; header names in any case', async () => {
    const file = Buffer.from('hello');
    const body = Buffer.from(
      `ignored preamble\r\n--${BOUNDARY}  \r\ncontent-disposition: FORM-DATA; name="fileName"\r\n\r\na.txt\r\n` +
        `--${BOUNDARY}\r\nCONTENT-DISPOSITION: form-data; filename="x;y.bin"; name="file"\r\n\r\nhello\r\n--${BOUNDARY}--`,
    );
    const chunk = await ChunkBody.open(source(body, () => 3).pieces, `Multipart/Form-Data; charset=utf-8; boundary="${BOUNDARY}"`);
    expect({ ...chunk.fields }).toEqual({ fileName: 'a.txt' });
    expect((await collect(chunk.file(5))).equals(file)).toBe(true);
  });

  it('keeps file bytes that look like a delimiter but are not one', async () => {
    const file = Buffer.from(`a\r\n--${BOUNDARY.slice(0, -1)}\r\n--${BOUNDARY}x`);
    const chunk = await ChunkBody.open(source(formBody([], file), () => 5).pieces, TYPE);
    // Known length frames the part: the declared size decides where it ends.
    expect((await collect(chunk.file(file.length))).equals(file)).toBe(true);
  });

  it('refuses a file part longer or shorter than declared', async () => {
    const file = randomBytes(1000);
    const long = await ChunkBody.open(source(formBody(FIELDS, file), () => 100).pieces, TYPE);
    await expect(collect(long.file(999))).rejects.toEqual(new ChunkLengthError(true));
    const short = await ChunkBody.open(source(formBody(FIELDS, file), () => 100).pieces, TYPE);
    const error = await collect(short.file(2000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkLengthError);
    expect((error as ChunkLengthError).tooLong).toBe(false);
  });

  it('tells a short part from a long one when the bytes after it make up the declared size', async () => {
    const shortBy = async (body: Buffer, expected: number) => {
      const chunk = await ChunkBody.open(source(body, () => 7).pieces, TYPE);
      const error = await collect(chunk.file(expected)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ChunkLengthError);
      return !(error as ChunkLengthError).tooLong;
    };
    // 60 bytes sent for 100: the close and what follows it fill the rest.
    expect(await shortBy(formBody(FIELDS, Buffer.alloc(60)), 100)).toBe(true);
    expect(await shortBy(formBody(FIELDS, Buffer.alloc(60), { after: 'epilogue '.repeat(500) }), 1000)).toBe(true);
    // Larger than the part's last 64 KiB that are kept for this: the close still lies inside them.
    expect(await shortBy(formBody(FIELDS, Buffer.alloc(150_000), { after: 'e'.repeat(60_000) }), 200_000)).toBe(true);
    expect(await shortBy(formBody(FIELDS, Buffer.alloc(200_001)), 200_000)).toBe(false);
    // One byte too many, or 160 for 100.
    expect(await shortBy(formBody(FIELDS, Buffer.alloc(101)), 100)).toBe(false);
    expect(await shortBy(formBody(FIELDS, Buffer.alloc(160)), 100)).toBe(false);
  });

  it('refuses a body cut off right after the file bytes', async () => {
    const body = formBody(FIELDS, Buffer.from('abc'));
    const cut = body.subarray(0, body.indexOf('abc') + 3);
    const chunk = await ChunkBody.open(source(cut, () => 10).pieces, TYPE);
    await expect(collect(chunk.file(3))).rejects.toBeInstanceOf(ChunkLengthError);
  });

  it('drops parts after the file, up to a limit', async () => {
    const extra = `--${BOUNDARY}\r\ncontent-disposition: form-data; name="late"\r\n\r\nv\r\n--${BOUNDARY}--\r\n`;
    const body = Buffer.concat([formBody(FIELDS, Buffer.from('abc')).subarray(0, -4), Buffer.from(`\r\n${extra}`)]);
    const ok = await ChunkBody.open(source(body, () => 16).pieces, TYPE);
    expect((await collect(ok.file(3))).toString()).toBe('abc');
    expect(ok.fields.late).toBeUndefined();

    const { pieces, state } = source(formBody(FIELDS, Buffer.from('abc'), { after: 'x'.repeat(200_000) }), () => 8192);
    const flood = await ChunkBody.open(pieces, TYPE);
    await expect(collect(flood.file(3))).rejects.toEqual(new ChunkLengthError(true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(state.done).toBe(true);
  });

  it('leaves out a field sent twice and never touches the prototype', async () => {
    const fields: [string, string][] = [
      ['path', '/a'],
      ['path', '/b'],
      ['__proto__', 'x'],
      ['fileName', 'f'],
    ];
    const chunk = await ChunkBody.open(source(formBody(fields, Buffer.from('z')), [50]).pieces, TYPE);
    expect(chunk.fields.path).toBeUndefined();
    expect(chunk.fields.fileName).toBe('f');
    expect(Object.getPrototypeOf(chunk.fields)).toBeNull();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('refuses what is not a chunk body with upload_chunk_invalid, and reads the rest of it', async () => {
    const file = Buffer.from('abc');
    const cases: [Buffer, string | undefined][] = [
      [formBody(FIELDS, file), undefined],
      [formBody(FIELDS, file), 'application/json'],
      [formBody(FIELDS, file), 'multipart/form-data'],
      [formBody(FIELDS, file), `multipart/form-data; boundary=${'b'.repeat(71)}`],
      [formBody(FIELDS, file, { boundary: 'other' }), TYPE],
      // No file part.
      [Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="a"\r\n\r\n1\r\n--${BOUNDARY}--\r\n`), TYPE],
      // A part without a content-disposition, or not form-data.
      [Buffer.from(`--${BOUNDARY}\r\ncontent-type: text/plain\r\n\r\n1\r\n--${BOUNDARY}--\r\n`), TYPE],
      [Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: attachment; name="a"\r\n\r\n1\r\n--${BOUNDARY}--\r\n`), TYPE],
      // Too many fields, a field too long, headers without end.
      [
        formBody(
          Array.from({ length: 17 }, (_, i): [string, string] => [`f${i}`, 'v']),
          file,
        ),
        TYPE,
      ],
      [formBody([['path', 'p'.repeat(8193)]], file), TYPE],
      [Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="a"; x="${'y'.repeat(10_000)}"`), TYPE],
      [Buffer.alloc(0), TYPE],
      // A preamble that never ends.
      [Buffer.concat([Buffer.alloc(400_000, 'a'), formBody(FIELDS, file)]), TYPE],
    ];
    for (const [body, type] of cases) {
      const { pieces, state } = source(body, () => 100);
      expect(await refusal(ChunkBody.open(pieces, type))).toBe('upload_chunk_invalid');
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (type === TYPE) expect(state.done).toBe(true);
    }
  });

  it('discard reads the body to its end', async () => {
    const { pieces, state } = source(formBody(FIELDS, randomBytes(100_000)), () => 4096);
    const chunk = await ChunkBody.open(pieces, TYPE);
    chunk.discard();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(state.done).toBe(true);
  });
});

describe('chunkOf', () => {
  async function* of(...pieces: string[]) {
    for (const piece of pieces) yield Buffer.from(piece);
  }

  it('passes a stream of exactly the expected size', async () => {
    const tapped: string[] = [];
    expect((await collect(chunkOf(of('ab', 'cd')).file(4, (p) => tapped.push(p.toString())))).toString()).toBe('abcd');
    expect(tapped).toEqual(['ab', 'cd']);
  });

  it('refuses a longer or shorter one', async () => {
    await expect(collect(chunkOf(of('ab', 'cd')).file(3))).rejects.toEqual(new ChunkLengthError(true));
    await expect(collect(chunkOf(of('ab')).file(3))).rejects.toEqual(new ChunkLengthError(false));
  });
});
