import { describe, expect, it } from 'vitest';
import { UploadError, type ChunkRequest, type UploadDescriptor, type UploadPersistence, type UploadSource, type UploadTransport } from './types';
import { UploadQueue } from './upload-queue';

const CHUNK = 10;

function source(size: number, name = 'a.bin'): UploadSource {
  const bytes = new Uint8Array(size).map((_, i) => i % 251);
  return { size, name, lastModified: 1, slice: (start, end) => new Blob([bytes.slice(start, end)]) };
}

interface Pending {
  chunk: ChunkRequest;
  resolve: (complete?: boolean) => void;
  reject: (error: unknown) => void;
}

/** A transport whose chunk answers the test releases by hand. */
function fakeTransport(received: number[] = []) {
  const pending: Pending[] = [];
  const sent: ChunkRequest[] = [];
  const statusCalls: string[] = [];
  let maxConcurrent = 0;
  let statusError: unknown = null;
  const transport: UploadTransport = {
    async status(query) {
      statusCalls.push(query.fileName);
      if (statusError) {
        const error = statusError;
        statusError = null;
        throw error;
      }
      return received;
    },
    sendChunk(chunk, onProgress, signal) {
      sent.push(chunk);
      return new Promise((resolve, reject) => {
        const entry: Pending = {
          chunk,
          resolve: (complete) => {
            onProgress(chunk.data.size);
            resolve({ complete: complete ?? chunk.isLastChunk });
          },
          reject,
        };
        pending.push(entry);
        maxConcurrent = Math.max(maxConcurrent, pending.length);
        signal.addEventListener('abort', () => {
          const at = pending.indexOf(entry);
          if (at >= 0) pending.splice(at, 1);
          reject(new UploadError(0, 'request_error_message'));
        });
      });
    },
  };
  const take = (index = 0): Pending => {
    const [entry] = pending.splice(index, 1);
    if (!entry) throw new Error('no chunk in flight');
    return entry;
  };
  return {
    transport,
    pending,
    sent,
    statusCalls,
    take,
    failStatusOnce: (error: unknown) => (statusError = error),
    maxConcurrent: () => maxConcurrent,
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
async function settle() {
  for (let i = 0; i < 10; i += 1) await tick();
}

/** Releases every chunk as it appears until none is left. */
async function drain(fake: ReturnType<typeof fakeTransport>) {
  await settle();
  while (fake.pending.length > 0) {
    fake.take().resolve();
    await settle();
  }
}

function queueWith(fake: ReturnType<typeof fakeTransport>, extra: Partial<ConstructorParameters<typeof UploadQueue>[0]> = {}) {
  const sleeps: number[] = [];
  const queue = new UploadQueue({
    transport: fake.transport,
    chunkSize: CHUNK,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  });
  return { queue, sleeps };
}

describe('UploadQueue', () => {
  it('splits a file into chunks with the multipart fields and finishes with the last one', async () => {
    const fake = fakeTransport();
    const done: string[] = [];
    const { queue } = queueWith(fake, { onComplete: (task) => done.push(task.name) });
    queue.add([{ source: source(25), path: '/Team' }]);
    await drain(fake);

    expect(fake.sent.map((c) => [c.chunkIndex, c.totalChunks, c.isLastChunk, c.data.size, c.fileSize])).toEqual([
      [0, 3, false, 10, 25],
      [1, 3, false, 10, 25],
      [2, 3, true, 5, 25],
    ]);
    expect(fake.sent.every((c) => c.path === '/Team' && c.fileName === 'a.bin')).toBe(true);
    const [task] = queue.getSnapshot();
    expect(task?.status).toBe('done');
    expect(task?.progress).toBe(100);
    expect(done).toEqual(['a.bin']);
  });

  it("sends each file's conflict choice with every chunk, and a refusal at completion fails that file alone", async () => {
    const fake = fakeTransport();
    const { queue } = queueWith(fake);
    queue.add([
      { source: source(15, 'r.bin'), path: '/T', onConflict: 'replace' },
      { source: source(5, 'k.bin'), path: '/T', onConflict: 'keep-both' },
      { source: source(5, 'n.bin'), path: '/T' },
    ]);
    // The last chunk of r.bin meets a name taken meanwhile (another upload won the race).
    await settle();
    while (fake.pending.length > 0) {
      const next = fake.take();
      if (next.chunk.fileName === 'r.bin' && next.chunk.isLastChunk) next.reject(new UploadError(409, 'file_exists_warning'));
      else next.resolve();
      await settle();
    }
    const actions = new Map(fake.sent.map((c) => [`${c.fileName}#${c.chunkIndex}`, c.onConflict]));
    expect(Object.fromEntries(actions)).toEqual({ 'r.bin#0': 'replace', 'r.bin#1': 'replace', 'k.bin#0': 'keep-both', 'n.bin#0': undefined });
    const byName = new Map(queue.getSnapshot().map((t) => [t.name, t]));
    expect(byName.get('r.bin')).toMatchObject({ status: 'failed', error: 'file_exists_warning', retryable: false });
    expect(byName.get('k.bin')?.status).toBe('done');
    expect(byName.get('n.bin')?.status).toBe('done');
  });

  it('sends an empty file as one empty last chunk', async () => {
    const fake = fakeTransport();
    const { queue } = queueWith(fake);
    queue.add([{ source: source(0, 'empty.txt'), path: '/T' }]);
    await drain(fake);
    expect(fake.sent.map((c) => [c.chunkIndex, c.totalChunks, c.isLastChunk, c.data.size])).toEqual([[0, 1, true, 0]]);
    expect(queue.getSnapshot()[0]?.status).toBe('done');
  });

  it('keeps at most four chunks in flight over all files, and a last chunk waits for the others', async () => {
    const fake = fakeTransport();
    const { queue } = queueWith(fake);
    queue.add([
      { source: source(60, 'one'), path: '/T' },
      { source: source(60, 'two'), path: '/T' },
    ]);
    await settle();
    expect(fake.pending.length).toBe(4);
    expect(queue.inFlightCount()).toBe(4);
    while (fake.pending.length > 0) {
      const entry = fake.take();
      if (entry.chunk.isLastChunk) {
        // Every other chunk of that file was accepted before its last one left.
        const others = fake.sent.filter((c) => c.fileName === entry.chunk.fileName && !c.isLastChunk);
        expect(others.length).toBe(entry.chunk.totalChunks - 1);
      }
      entry.resolve();
      await settle();
      expect(fake.pending.length).toBeLessThanOrEqual(4);
    }
    expect(fake.maxConcurrent()).toBe(4);
    expect(queue.getSnapshot().map((t) => t.status)).toEqual(['done', 'done']);
  });

  it('resumes from the chunks the server already holds', async () => {
    const fake = fakeTransport([0, 2]);
    const { queue } = queueWith(fake);
    queue.add([{ source: source(45), path: '/T' }]);
    await settle();
    expect(queue.getSnapshot()[0]?.uploadedBytes).toBe(20);
    await drain(fake);
    expect(fake.statusCalls).toEqual(['a.bin']);
    expect(fake.sent.map((c) => c.chunkIndex)).toEqual([1, 3, 4]);
    expect(queue.getSnapshot()[0]?.status).toBe('done');
  });

  it('restores kept uploads after a reload and resumes the ones whose file was kept', async () => {
    const fake = fakeTransport([0]);
    const kept = new Map<string, { descriptor: UploadDescriptor; source?: UploadSource }>();
    const persistence: UploadPersistence = {
      save: async (descriptor, src) => void kept.set(descriptor.id, { descriptor, source: src }),
      remove: async (id) => void kept.delete(id),
      load: async () => [...kept.values()],
    };
    const first = queueWith(fakeTransport(), { persistence });
    first.queue.add([{ source: source(30, 'kept'), path: '/T' }]);
    await tick();
    expect(kept.size).toBe(1);
    // A second descriptor whose bytes the browser could not keep.
    kept.set('lost', {
      descriptor: { id: 'lost', path: '/T', name: 'lost', size: 30, lastModified: 1, createdAt: 2 },
    });

    const { queue } = queueWith(fake, { persistence });
    await queue.restore();
    await settle();
    const restored = queue.getSnapshot();
    expect(restored.map((t) => [t.name, t.status, t.needsFile ?? false])).toEqual([
      ['kept', 'uploading', false],
      ['lost', 'paused', true],
    ]);
    expect(fake.statusCalls).toEqual(['kept']);
    await drain(fake);
    expect(fake.sent.map((c) => c.chunkIndex)).toEqual([1, 2]);
    // The resumed chunks carry the upload id the file had before the reload: the same session.
    expect(fake.sent.map((c) => c.uploadId)).toEqual([restored[0]!.id, restored[0]!.id]);
    expect(queue.getSnapshot()[0]?.status).toBe('done');
    expect(kept.has(restored[0]!.id)).toBe(false);

    expect(queue.provideFile('lost', source(29))).toBe(false);
    expect(queue.provideFile('lost', source(30, 'lost'))).toBe(true);
    await drain(fake);
    expect(queue.getSnapshot()[1]?.status).toBe('done');
  });

  it('retries network, 5xx and 429 failures with growing backoff', async () => {
    const fake = fakeTransport();
    const { queue, sleeps } = queueWith(fake);
    queue.add([{ source: source(5), path: '/T' }]);
    await settle();
    fake.take().reject(new UploadError(0, 'request_error_message'));
    await settle();
    fake.take().reject(new UploadError(503, 'request_error_message'));
    await settle();
    fake.take().reject(new UploadError(429, 'too_many_requests_message'));
    await settle();
    fake.take().resolve();
    await settle();
    expect(sleeps).toEqual([1000, 2000, 4000]);
    expect(queue.getSnapshot()[0]?.status).toBe('done');
  });

  it('retries a failed status call too', async () => {
    const fake = fakeTransport();
    fake.failStatusOnce(new UploadError(502, 'request_error_message'));
    const { queue, sleeps } = queueWith(fake);
    queue.add([{ source: source(5), path: '/T' }]);
    await drain(fake);
    expect(sleeps).toEqual([1000]);
    expect(queue.getSnapshot()[0]?.status).toBe('done');
  });

  it('fails at once on a refusal, and after too many retryable failures; retry starts again', async () => {
    const fake = fakeTransport();
    const { queue } = queueWith(fake, { maxAttempts: 2 });
    const [refused, flaky] = queue.add([
      { source: source(5, 'refused'), path: '/T' },
      { source: source(5, 'flaky'), path: '/T' },
    ]);
    await settle();
    fake.take(fake.pending.findIndex((p) => p.chunk.fileName === 'refused')).reject(new UploadError(403, 'no_access_warning'));
    await settle();
    const failed = queue.getSnapshot().find((t) => t.id === refused);
    expect([failed?.status, failed?.error, failed?.retryable]).toEqual(['failed', 'no_access_warning', false]);

    fake.take().reject(new UploadError(500, 'request_error_message'));
    await settle();
    fake.take().reject(new UploadError(500, 'request_error_message'));
    await settle();
    const gaveUp = queue.getSnapshot().find((t) => t.id === flaky);
    expect([gaveUp?.status, gaveUp?.retryable]).toEqual(['failed', true]);

    queue.retry(flaky as string);
    await drain(fake);
    expect(queue.getSnapshot().find((t) => t.id === flaky)?.status).toBe('done');
  });

  it('cancel stops the chunks on the wire and frees their slots', async () => {
    const fake = fakeTransport();
    const { queue } = queueWith(fake);
    const [big] = queue.add([
      { source: source(100, 'big'), path: '/T' },
      { source: source(15, 'small'), path: '/T' },
    ]);
    await settle();
    expect(fake.pending.every((p) => p.chunk.fileName === 'big')).toBe(true);
    queue.cancel(big as string);
    await settle();
    expect(queue.getSnapshot()[0]?.status).toBe('canceled');
    expect(fake.pending.map((p) => p.chunk.fileName)).toEqual(['small']);
    await drain(fake);
    expect(queue.getSnapshot()[1]?.status).toBe('done');
    expect(fake.sent.filter((c) => c.fileName === 'big').length).toBe(4);
  });

  it('a canceled file keeps the bytes that reached the server, for its row to show', async () => {
    const fake = fakeTransport();
    const { queue } = queueWith(fake);
    const [id] = queue.add([{ source: source(100, 'big'), path: '/T' }]);
    await settle();
    fake.take().resolve();
    fake.take().resolve();
    await settle();
    queue.cancel(id as string);
    await settle();
    const task = queue.getSnapshot()[0];
    // Two chunks of ten bytes were accepted; the ones cut off on the wire do not count.
    expect([task?.status, task?.uploadedBytes, task?.size]).toEqual(['canceled', 20, 100]);
  });

  it('a cancel tells the server, once, which upload the user stopped', async () => {
    const fake = fakeTransport();
    const told: Array<{ path: string; fileName: string; fileSize: number; uploadId?: string }> = [];
    fake.transport.cancel = async (query) => {
      told.push(query);
    };
    const { queue } = queueWith(fake);
    const [id] = queue.add([{ source: source(100, 'big'), path: '/T' }]);
    await settle();
    queue.cancel(id as string);
    queue.cancel(id as string);
    await settle();
    expect(told).toEqual([{ path: '/T', fileName: 'big', fileSize: 100, uploadId: id }]);
  });

  it('pause keeps the file and resume sends what is missing', async () => {
    const fake = fakeTransport();
    const { queue } = queueWith(fake);
    const [id] = queue.add([{ source: source(20), path: '/T' }]);
    await settle();
    fake.take().resolve();
    await settle();
    queue.pause(id as string);
    await settle();
    expect(queue.getSnapshot()[0]?.status).toBe('paused');
    expect(fake.pending.length).toBe(0);
    queue.resume(id as string);
    await drain(fake);
    expect(queue.getSnapshot()[0]?.status).toBe('done');
    expect(fake.statusCalls.length).toBe(2);
  });

  it('reports progress and speed while a chunk is on the wire', async () => {
    let now = 0;
    const progress: Array<(sent: number) => void> = [];
    const transport: UploadTransport = {
      status: async () => [],
      sendChunk: (_chunk, onProgress) => {
        progress.push(onProgress);
        return new Promise(() => undefined);
      },
    };
    const queue = new UploadQueue({ transport, chunkSize: 1000, now: () => now, maxInFlight: 1 });
    queue.add([{ source: source(4000), path: '/T' }]);
    await settle();
    now = 1000;
    progress[0]?.(500);
    now = 2000;
    progress[0]?.(1000);
    const [task] = queue.getSnapshot();
    expect(task?.uploadedBytes).toBe(1000);
    expect(task?.progress).toBe(25);
    expect(task?.speed).toBeGreaterThan(400);
    expect(task?.speed).toBeLessThan(1100);
  });
});
