import { describe, expect, it } from 'vitest';
import type { UploadStatus, UploadTask } from '../engine/types';
import { uploadNews } from './upload-news';

const task = (id: string, status: UploadStatus, error?: string): UploadTask => ({
  id,
  path: '/운영',
  name: `${id}.txt`,
  size: 10,
  lastModified: 0,
  createdAt: 0,
  status,
  totalChunks: 1,
  uploadedBytes: 0,
  progress: 0,
  speed: 0,
  error,
});

describe('upload news for the live region', () => {
  it('tells a file that finished or failed once, and nothing for a task first seen finished', () => {
    const before = new Map<string, UploadStatus>();
    expect(uploadNews(before, [task('a', 'uploading'), task('old', 'done')])).toEqual([]);
    expect(uploadNews(before, [task('a', 'done'), task('old', 'done')])).toEqual([{ name: 'a.txt', outcome: 'done' }]);
    expect(uploadNews(before, [task('a', 'done')])).toEqual([]);
    expect(uploadNews(before, [task('b', 'queued')])).toEqual([]);
    expect(uploadNews(before, [task('b', 'failed', 'upload_error')])).toEqual([{ name: 'b.txt', outcome: 'failed', error: 'upload_error' }]);
    expect(before.has('a')).toBe(false);
  });

  it('a cancelled file is not news', () => {
    const before = new Map<string, UploadStatus>();
    uploadNews(before, [task('c', 'uploading')]);
    expect(uploadNews(before, [task('c', 'canceled')])).toEqual([]);
  });
});
