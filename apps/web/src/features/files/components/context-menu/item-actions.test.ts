import type { FileEntry } from '@bogwan/contracts';
import { describe, expect, it } from 'vitest';
import { allowedActions } from './item-actions';

const file: FileEntry = {
  _id: '1',
  name: 'a.txt',
  path: '/T/a.txt',
  folder: false,
  size: 1,
  mtime: '',
  lock: false,
  starred: false,
  owner: null,
  extension: 'txt',
};
const folder: FileEntry = { ...file, _id: '2', name: 'B', path: '/T/B', folder: true };

describe('allowedActions', () => {
  it('hides what the permission list lacks', () => {
    expect(allowedActions([file], ['READ', 'PREVIEW', 'DOWNLOAD'])).toEqual(['open', 'download', 'star']);
    expect(allowedActions([file], ['READ'])).toEqual(['star']);
    expect(allowedActions([folder], ['READ', 'UPDATE', 'MOVE', 'COPY', 'TRASH'])).toEqual(['open', 'rename', 'move', 'copy', 'star', 'trash']);
    expect(allowedActions([], ['READ'])).toEqual(['star']);
  });

  it('offers open and rename for one item only', () => {
    expect(allowedActions([file, folder], ['READ', 'PREVIEW', 'UPDATE', 'TRASH'])).toEqual(['star', 'trash']);
  });
});
