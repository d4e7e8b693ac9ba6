// Restore on worker threads (the native codec turned off for this file): zeros are written
// into a file that existed, as the native codec does (restore-pieces.test.ts).
import { describe, expect, it } from 'vitest';
import { restoreOverWrongZeros } from './helpers.js';

process.env.BOGWAN_VAULT_NATIVE = '0';

describe('restore over an existing file (worker threads)', () => {
  it('writes zeros over wrong bytes instead of leaving them as holes', async () => {
    const { nativeCodec } = await import('../src/native.js');
    expect(nativeCodec()).toBeNull();
    expect(await restoreOverWrongZeros('zeros-threads')).toEqual({ same: true, failed: [] });
  });
});
