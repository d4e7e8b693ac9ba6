import { describe, expect, it } from 'vitest';
import { treeKeyAction, type ShownItem } from './tree-keys';

// 운영 (open) > 보고서 (closed), 자료 (leaf); 기록 (closed)
const items: ShownItem[] = [
  { path: '/운영', level: 1, expanded: true, disabled: false },
  { path: '/운영/보고서', level: 2, expanded: false, disabled: false },
  { path: '/운영/자료', level: 2, expanded: null, disabled: true },
  { path: '/기록', level: 1, expanded: false, disabled: false },
];

describe('tree keyboard (WAI-ARIA tree pattern)', () => {
  it('moves up and down through the shown items, and to the first and last', () => {
    expect(treeKeyAction('ArrowDown', items, 0)).toEqual({ kind: 'focus', index: 1 });
    expect(treeKeyAction('ArrowDown', items, 3)).toBeNull();
    expect(treeKeyAction('ArrowUp', items, 2)).toEqual({ kind: 'focus', index: 1 });
    expect(treeKeyAction('ArrowUp', items, 0)).toBeNull();
    expect(treeKeyAction('Home', items, 2)).toEqual({ kind: 'focus', index: 0 });
    expect(treeKeyAction('End', items, 0)).toEqual({ kind: 'focus', index: 3 });
  });

  it('right opens a closed folder, then moves to its first child; a leaf stays', () => {
    expect(treeKeyAction('ArrowRight', items, 1)).toEqual({ kind: 'open', path: '/운영/보고서', open: true });
    expect(treeKeyAction('ArrowRight', items, 0)).toEqual({ kind: 'focus', index: 1 });
    expect(treeKeyAction('ArrowRight', items, 2)).toBeNull();
  });

  it('left closes an open folder, else moves to the parent', () => {
    expect(treeKeyAction('ArrowLeft', items, 0)).toEqual({ kind: 'open', path: '/운영', open: false });
    expect(treeKeyAction('ArrowLeft', items, 2)).toEqual({ kind: 'focus', index: 0 });
    expect(treeKeyAction('ArrowLeft', items, 3)).toBeNull();
  });

  it('Enter and Space pick a folder that can be picked', () => {
    expect(treeKeyAction('Enter', items, 1)).toEqual({ kind: 'select', path: '/운영/보고서' });
    expect(treeKeyAction(' ', items, 3)).toEqual({ kind: 'select', path: '/기록' });
    expect(treeKeyAction('Enter', items, 2)).toBeNull();
    expect(treeKeyAction('a', items, 1)).toBeNull();
  });
});
