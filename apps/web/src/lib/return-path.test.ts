import { describe, expect, it } from 'vitest';
import { safeReturnPath, signInHref } from './return-path';

describe('return path after sign-in', () => {
  it('keeps a deep link of this site, without the locale prefix, with its query and hash', () => {
    expect(safeReturnPath('/storage/%EC%9A%B4%EC%98%81?view=grid#top')).toBe('/storage/%EC%9A%B4%EC%98%81?view=grid#top');
    expect(safeReturnPath('/en/requests')).toBe('/requests');
    expect(safeReturnPath('/share/abc')).toBe('/share/abc');
  });

  it('refuses anything that could leave the site or loop back to sign-in', () => {
    for (const bad of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'storage',
      '/\t/evil.example',
      '/auth/login',
      '/en/auth/login?next=/x',
      '',
      null,
    ]) {
      expect(safeReturnPath(bad), String(bad)).toBeNull();
    }
  });

  it('builds the sign-in address with the return path, and a plain one for home', () => {
    expect(signInHref('/en/trash?x=1')).toBe('/auth/login?next=%2Ftrash%3Fx%3D1');
    expect(signInHref('/')).toBe('/auth/login');
    expect(signInHref('//evil.example')).toBe('/auth/login');
  });
});
