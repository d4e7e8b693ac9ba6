import { describe, expect, it } from 'vitest';
import { folderSegments } from './folder-path';

describe('folderSegments', () => {
  it('is empty at the top of storage', () => {
    expect(folderSegments('')).toEqual([]);
    expect(folderSegments('/')).toEqual([]);
  });

  it('decodes names and links every ancestor', () => {
    expect(folderSegments('%EB%AC%B8%EC%84%9C/2024/')).toEqual([
      { name: '문서', href: '/storage/%EB%AC%B8%EC%84%9C' },
      { name: '2024', href: '/storage/%EB%AC%B8%EC%84%9C/2024' },
    ]);
  });

  it('keeps a segment that is not valid percent-encoding', () => {
    expect(folderSegments('100%')).toEqual([{ name: '100%', href: '/storage/100%' }]);
  });
});
