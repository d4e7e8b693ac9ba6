import { describe, expect, it } from 'vitest';
import { localeFromPath, readLocaleCookie, stripLocale, withLocale } from './locale';

describe('locale paths', () => {
  it('reads the locale from the URL prefix', () => {
    expect(localeFromPath('/')).toBe('ko');
    expect(localeFromPath('/storage/en')).toBe('ko');
    expect(localeFromPath('/english')).toBe('ko');
    expect(localeFromPath('/en')).toBe('en');
    expect(localeFromPath('/en/')).toBe('en');
    expect(localeFromPath('/en/storage/a')).toBe('en');
  });

  it('strips and adds the prefix', () => {
    expect(stripLocale('/en')).toBe('/');
    expect(stripLocale('/en/recent')).toBe('/recent');
    expect(stripLocale('/recent')).toBe('/recent');
    expect(withLocale('en', '/')).toBe('/en/');
    expect(withLocale('en', 'auth/login')).toBe('/en/auth/login');
    expect(withLocale('ko', '/auth/login')).toBe('/auth/login');
    expect(withLocale('en', stripLocale('/storage/a/b'))).toBe('/en/storage/a/b');
  });

  it('reads the i18n_redirected cookie', () => {
    expect(readLocaleCookie('a=1; i18n_redirected=en; b=2')).toBe('en');
    expect(readLocaleCookie('i18n_redirected=ko')).toBe('ko');
    expect(readLocaleCookie('i18n_redirected=fr')).toBeNull();
    expect(readLocaleCookie('')).toBeNull();
  });
});
