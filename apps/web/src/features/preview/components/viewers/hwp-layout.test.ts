import { describe, expect, it } from 'vitest';
import { currentPage, fitZoom, withFallbackFonts } from './hwp-layout';

describe('fitZoom', () => {
  it('shrinks an A4 page (794 px) to a phone and keeps it at full size on a desktop', () => {
    expect(794 * fitZoom(366, 794)).toBeLessThanOrEqual(366 - 24);
    expect(fitZoom(1400, 794)).toBe(1);
  });
});

describe('currentPage', () => {
  const bands = [
    { top: 0, bottom: 1000 },
    { top: 1020, bottom: 2020 },
    { top: 2040, bottom: 2500 },
  ];
  it('follows the page under the middle of the view, and the last page at the end', () => {
    expect(currentPage(bands, 0, 800, 2500)).toBe(1);
    expect(currentPage(bands, 700, 800, 2500)).toBe(2);
    expect(currentPage(bands, 1700, 800, 2500)).toBe(3);
    expect(currentPage([], 0, 800, 0)).toBe(0);
  });
});

describe('withFallbackFonts', () => {
  it('keeps the document fonts first, quoted, drops generic guesses and appends the app fonts', () => {
    expect(withFallbackFonts('함초롬바탕,"HCR Batang",sans', '"Pretendard Variable",sans-serif')).toBe(
      '"함초롬바탕","HCR Batang","Pretendard Variable",sans-serif',
    );
  });
});
