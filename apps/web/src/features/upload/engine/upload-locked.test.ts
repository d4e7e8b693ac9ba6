import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../../../i18n/en.json';
import ko from '../../../i18n/ko.json';
import { messageText } from '../../../i18n/keys';
import { UploadError, type UploadTransport } from './types';
import { UploadQueue } from './upload-queue';

// A file locked by another account's WebDAV client (an office app) refuses web uploads with
// 423 `file_locked_warning`: the upload fails at once (a lock lasts until its owner ends it;
// retrying on a timer would not help), shows the server's message, and can be retried by hand.

const settle = async () => {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
};

describe('an upload refused because of a WebDAV lock', () => {
  it('fails at once with file_locked_warning, not retried, and a manual retry sends it again', async () => {
    let sends = 0;
    let locked = true;
    const transport: UploadTransport = {
      status: async () => [],
      sendChunk: async (chunk) => {
        sends += 1;
        if (locked) throw new UploadError(423, 'file_locked_warning');
        return { complete: chunk.isLastChunk };
      },
    };
    const queue = new UploadQueue({ transport, chunkSize: 10, sleep: async () => {} });
    const bytes = new Uint8Array(5);
    const [id] = queue.add([{ source: { size: 5, name: '문서.docx', lastModified: 1, slice: (a, b) => new Blob([bytes.slice(a, b)]) }, path: '/영업부' }]);
    await settle();
    const failed = queue.getSnapshot().find((task) => task.id === id);
    expect([failed?.status, failed?.error, failed?.retryable, sends]).toEqual(['failed', 'file_locked_warning', false, 1]);

    locked = false;
    queue.retry(id as string);
    await settle();
    expect(queue.getSnapshot().find((task) => task.id === id)?.status).toBe('done');
  });

  it('shows the lock message in Korean and English, not the generic failure', () => {
    for (const catalogue of [ko, en] as Record<string, string>[]) {
      const t = ((key: string) => catalogue[key] ?? key) as unknown as TFunction;
      const text = messageText(t, 'file_locked_warning');
      expect(text).toBe(catalogue.file_locked_warning);
      expect(text).not.toBe(catalogue.request_error_message);
      expect(text).toContain('WebDAV');
    }
  });
});
