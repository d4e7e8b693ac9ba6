import { describe, expect, it } from 'vitest';
import { isOfferedPageSize, pageSizeOptions } from './page-size-options';

describe('page-size options', () => {
  it('offers exactly the spec choices', () => {
    expect(pageSizeOptions(20)).toEqual([10, 20, 50, 100]);
    expect([5, 10, 15, 20, 50, 100].filter(isOfferedPageSize)).toEqual([10, 20, 50, 100]);
  });

  it('keeps a default outside the choices selectable as the current value, without offering it', () => {
    expect(pageSizeOptions(15)).toEqual([10, 15, 20, 50, 100]);
    expect(isOfferedPageSize(15)).toBe(false);
  });
});
