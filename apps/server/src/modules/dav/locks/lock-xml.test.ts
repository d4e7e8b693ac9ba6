import { describe, expect, it } from 'vitest';
import { parseXml } from '../xml.js';
import { DEFAULT_LOCK_SECONDS, MAX_LOCK_SECONDS, type DavLock, lockTimeoutSeconds } from './dav-locks.js';
import { BadLockInfo, MAX_OWNER_XML, activeLockXml, conditionXml, readLockInfo, supportedLockXml } from './lock-xml.js';

const info = (inner: string) => readLockInfo(parseXml(`<D:lockinfo xmlns:D="DAV:">${inner}</D:lockinfo>`));
const WRITE = '<D:locktype><D:write/></D:locktype>';

describe('lockinfo', () => {
  it('reads the scope and keeps the owner as XML under the D: prefix', () => {
    expect(info(`<D:lockscope><D:shared/></D:lockscope>${WRITE}`)).toEqual({ scope: 'shared', ownerXml: '' });
    expect(info(`<D:lockscope><D:exclusive/></D:lockscope>${WRITE}<D:owner><D:href>mailto:김@example.com</D:href></D:owner>`)).toEqual({
      scope: 'exclusive',
      ownerXml: '<D:owner><D:href>mailto:김@example.com</D:href></D:owner>',
    });
    // Other namespaces are declared on their element; text is escaped again.
    const other = readLockInfo(
      parseXml(
        '<lockinfo xmlns="DAV:" xmlns:x="urn:x"><lockscope><exclusive/></lockscope><locktype><write/></locktype><owner><x:name a="1">A &amp; B</x:name></owner></lockinfo>',
      ),
    );
    expect(other.ownerXml).toBe('<D:owner><o:name xmlns:o="urn:x" a="1">A &amp; B</o:name></D:owner>');
  });

  it.each([
    ['another root element', '<D:propfind xmlns:D="DAV:"/>'],
    ['no scope', `<D:lockinfo xmlns:D="DAV:">${WRITE}</D:lockinfo>`],
    ['two scopes', `<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:shared/><D:exclusive/></D:lockscope>${WRITE}</D:lockinfo>`],
    ['an unknown scope', `<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:solo/></D:lockscope>${WRITE}</D:lockinfo>`],
    ['no type', '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:shared/></D:lockscope></D:lockinfo>'],
    ['a read lock', '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:shared/></D:lockscope><D:locktype><D:read/></D:locktype></D:lockinfo>'],
    ['a huge owner', `<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:shared/></D:lockscope>${WRITE}<D:owner>${'x'.repeat(MAX_OWNER_XML)}</D:owner></D:lockinfo>`],
  ])('refuses %s', (_why, xml) => {
    expect(() => readLockInfo(parseXml(xml))).toThrow(BadLockInfo);
  });
});

describe('Timeout header', () => {
  it.each([
    [undefined, DEFAULT_LOCK_SECONDS],
    ['Second-120', 120],
    ['second-120', 120],
    ['Infinite', MAX_LOCK_SECONDS],
    ['Infinite, Second-4100000000', MAX_LOCK_SECONDS],
    ['Second-4100000000', MAX_LOCK_SECONDS],
    ['Second-0', 1],
    ['Minute-5', DEFAULT_LOCK_SECONDS],
    ['Minute-5, Second-30', 30],
    ['', DEFAULT_LOCK_SECONDS],
  ])('%s gives %i seconds', (header, seconds) => {
    expect(lockTimeoutSeconds(header)).toBe(seconds);
  });
});

describe('lock XML', () => {
  const lock: DavLock = {
    token: 'urn:uuid:0a0b',
    path: '/영업부/a&b.txt',
    depth: 'infinity',
    scope: 'shared',
    ownerXml: '<D:owner>kim</D:owner>',
    accountId: 'u1',
    timeoutSeconds: 600,
    createdAt: '2026-11-27T00:00:00.000Z',
    expiresAt: 1_000_000,
  };

  it('writes an activelock with the seconds left and the lock root escaped', () => {
    const xml = activeLockXml(lock, (p) => `/dav${p}`, 1_000_000 - 59_500);
    expect(xml).toBe(
      '<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope><D:shared/></D:lockscope><D:depth>infinity</D:depth>' +
        '<D:owner>kim</D:owner><D:timeout>Second-60</D:timeout><D:locktoken><D:href>urn:uuid:0a0b</D:href></D:locktoken>' +
        '<D:lockroot><D:href>/dav/영업부/a&amp;b.txt</D:href></D:lockroot></D:activelock>',
    );
  });

  it('writes supportedlock and error conditions as well-formed XML', () => {
    expect(parseXml(supportedLockXml()).children).toHaveLength(2);
    expect(conditionXml('lock-token-submitted', ['/dav/a', '/dav/a'])).toContain('<D:lock-token-submitted><D:href>/dav/a</D:href></D:lock-token-submitted>');
    expect(parseXml(conditionXml('no-conflicting-lock')).local).toBe('error');
  });
});
