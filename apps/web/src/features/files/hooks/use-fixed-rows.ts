import { useLayoutEffect, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';

/** A row to draw: its place in the list and its offset from the top, in px. */
export interface FixedRow {
  index: number;
  start: number;
}

interface Range {
  first: number;
  last: number;
}

const EMPTY: Range = { first: 0, last: -1 };

function rangeOf(element: HTMLElement, count: number, size: number, overscan: number): Range {
  if (count === 0 || size <= 0) return EMPTY;
  const top = element.scrollTop;
  const first = Math.max(0, Math.floor(top / size) - overscan);
  const last = Math.min(count - 1, Math.ceil((top + element.clientHeight) / size) - 1 + overscan);
  return last < first ? EMPTY : { first, last };
}

/**
 * The rows of a list of `count` rows, each `size` px high, that are in view in `scroller`
 * (with `overscan` more above and below), and the height of the whole list. Only the rows in
 * view exist in the page. Every row has the same height, so where a row lies is a
 * multiplication: nothing is measured but the scroller's own height. A scroll that brings
 * other rows into view is drawn before the frame is painted, so a fast flick shows no gap.
 */
export function useFixedRows(scroller: RefObject<HTMLElement | null>, count: number, size: number, overscan: number): { rows: FixedRow[]; totalSize: number } {
  const [range, setRange] = useState<Range>(EMPTY);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const update = (sync: boolean) => {
      const next = rangeOf(element, count, size, overscan);
      const apply = () => setRange((current) => (current.first === next.first && current.last === next.last ? current : next));
      if (sync) flushSync(apply);
      else apply();
    };
    update(false);
    const onScroll = () => update(true);
    element.addEventListener('scroll', onScroll, { passive: true });
    const observer = new ResizeObserver(() => update(false));
    observer.observe(element);
    return () => {
      element.removeEventListener('scroll', onScroll);
      observer.disconnect();
    };
  }, [scroller, count, size, overscan]);

  const rows: FixedRow[] = [];
  for (let index = range.first; index <= Math.min(range.last, count - 1); index++) rows.push({ index, start: index * size });
  return { rows, totalSize: count * size };
}
