import { describe, expect, it } from 'vitest';
import { contentDisposition, etagMatches, parseRange, previewType } from './http-bytes.js';

describe('contentDisposition', () => {
  it('keeps ASCII names and escapes quotes', () => {
    expect(contentDisposition('attachment', 'report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(contentDisposition('inline', 'a "b".txt')).toBe(`inline; filename="a _b_.txt"; filename*=UTF-8''a%20%22b%22.txt`);
  });

  it('sends Korean names as UTF-8 with an ASCII fallback', () => {
    const header = contentDisposition('attachment', '보고서 (최종).hwp');
    expect(header).toBe(`attachment; filename="___ (__).hwp"; filename*=UTF-8''%EB%B3%B4%EA%B3%A0%EC%84%9C%20%28%EC%B5%9C%EC%A2%85%29.hwp`);
    expect(decodeURIComponent(header.split("UTF-8''")[1]!)).toBe('보고서 (최종).hwp');
  });
});

describe('parseRange', () => {
  it('reads the single-range forms', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=990-2000', 1000)).toEqual({ start: 990, end: 999 });
    expect(parseRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
  });

  it('answers unsatisfiable beyond the end, and ignores what it does not serve', () => {
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseRange(undefined, 10)).toBeNull();
    expect(parseRange('bytes=0-1,5-6', 10)).toBeNull();
    expect(parseRange('items=0-1', 10)).toBeNull();
    expect(parseRange('bytes=5-2', 10)).toBeNull();
  });
});

describe('etagMatches', () => {
  it('matches one of a list, weak forms and *', () => {
    expect(etagMatches('"a", "b"', '"b"')).toBe(true);
    expect(etagMatches('W/"b"', '"b"')).toBe(true);
    expect(etagMatches('*', '"b"')).toBe(true);
    expect(etagMatches('"c"', '"b"')).toBe(false);
    expect(etagMatches(undefined, '"b"')).toBe(false);
  });
});

describe('previewType', () => {
  it('serves passive media by type and everything active as plain text', () => {
    expect(previewType('a.PNG')).toBe('image/png');
    expect(previewType('clip.mp4')).toBe('video/mp4');
    expect(previewType('doc.pdf')).toBe('application/pdf');
    expect(previewType('표.xlsx')).toBe('application/octet-stream');
    expect(previewType('문서.hwp')).toBe('application/octet-stream');
    for (const name of ['x.html', 'x.htm', 'x.svg', 'x.xml', 'x.js', 'x.xhtml', 'noext', 'x.unknown']) {
      expect(previewType(name)).toBe('text/plain; charset=utf-8');
    }
  });
});
