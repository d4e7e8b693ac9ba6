import { describe, expect, it } from 'vitest';
import { davAddress } from './dav-address';

describe('davAddress', () => {
  it('is the DAV root for the top of the storage', () => {
    expect(davAddress('https://files.example.com', '/')).toBe('https://files.example.com/dav/');
  });

  it('percent-encodes each name as UTF-8 and ends with a slash', () => {
    expect(davAddress('http://localhost:3000', '/공유 폴더/보고서 #1/100%')).toBe(
      'http://localhost:3000/dav/%EA%B3%B5%EC%9C%A0%20%ED%8F%B4%EB%8D%94/%EB%B3%B4%EA%B3%A0%EC%84%9C%20%231/100%25/',
    );
  });

  it('keeps a slash inside no name: every segment is encoded on its own', () => {
    expect(davAddress('http://h', '/A/B?x=1')).toBe('http://h/dav/A/B%3Fx%3D1/');
  });
});
