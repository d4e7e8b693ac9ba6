import { describe, expect, it } from 'vitest';
import { isShareKey, newShareKey, SHARE_TOKEN_TTL_MS, ShareTokens, shareKeyHash } from './share-keys.js';

describe('share keys and tokens', () => {
  it('makes keys of 256 random bits that never repeat', () => {
    const keys = new Set(Array.from({ length: 1000 }, newShareKey));
    expect(keys.size).toBe(1000);
    for (const key of keys) expect(isShareKey(key)).toBe(true);
    expect(Buffer.from([...keys][0]!, 'base64url')).toHaveLength(32);
    expect(shareKeyHash('a')).not.toBe(shareKeyHash('b'));
  });

  it('accepts a token only for its link, its password and until it expires', () => {
    const tokens = new ShareTokens('server secret');
    const now = Date.now();
    const token = tokens.issue('share-1', 'hash-1', now);
    expect(tokens.verify(token, 'share-1', 'hash-1', now)).toBe(true);
    expect(tokens.verify(token, 'share-2', 'hash-1', now)).toBe(false);
    expect(tokens.verify(token, 'share-1', 'hash-2', now)).toBe(false);
    expect(tokens.verify(token, 'share-1', 'hash-1', now + SHARE_TOKEN_TTL_MS + 1)).toBe(false);
    expect(new ShareTokens('other secret').verify(token, 'share-1', 'hash-1', now)).toBe(false);
    const [expiry, signature] = token.split('.');
    expect(tokens.verify(`${Number(expiry) + 1000}.${signature}`, 'share-1', 'hash-1', now)).toBe(false);
    expect(tokens.verify(undefined, 'share-1', 'hash-1', now)).toBe(false);
  });
});
