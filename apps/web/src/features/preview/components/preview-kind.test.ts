import { describe, expect, it } from 'vitest';
import { previewKind } from './preview-kind';

describe('previewKind', () => {
  it('picks a viewer by extension and falls back to text', () => {
    expect(previewKind('사진.PNG')).toBe('image');
    expect(previewKind('a.svg')).toBe('image');
    expect(previewKind('clip.mp4')).toBe('video');
    expect(previewKind('doc.pdf')).toBe('pdf');
    expect(previewKind('noori.hwp')).toBe('hwp');
    expect(previewKind('sheet.xlsx')).toBe('xlsx');
    expect(previewKind('page.html')).toBe('text');
    expect(previewKind('README')).toBe('text');
  });
});
