import { useCallback, useEffect, useRef, type PointerEvent } from 'react';

/** How long a finger rests on an item before it counts as a long-press (what phones use for their own menus). */
export const LONG_PRESS_MS = 500;
/** A finger that moves further than this is scrolling, not pressing. */
const MOVE_TOLERANCE_PX = 10;

export interface LongPressHandlers {
  onPointerDown: (event: PointerEvent) => void;
  onPointerMove: (event: PointerEvent) => void;
  onPointerUp: () => void;
  onPointerCancel: () => void;
}

/**
 * Long-press on touch screens: `onLongPress` runs with the press point when a finger rests
 * on an element; mouse and pen keep their own gestures (right-click opens the same menu).
 */
export function useLongPress<Target>(onLongPress: (point: { x: number; y: number }, target: Target) => void): {
  handlers: (target: Target) => LongPressHandlers;
  /** True once after a long-press: the click the finger's release makes is then ignored. */
  takeFired: () => boolean;
} {
  const timer = useRef<number | null>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const fired = useRef(false);
  const callback = useRef(onLongPress);
  callback.current = onLongPress;

  const cancel = useCallback(() => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
    start.current = null;
  }, []);
  useEffect(() => cancel, [cancel]);

  const handlers = useCallback(
    (target: Target) => ({
      onPointerDown: (event: PointerEvent) => {
        if (event.pointerType !== 'touch') return;
        cancel();
        fired.current = false;
        const point = { x: event.clientX, y: event.clientY };
        start.current = point;
        timer.current = window.setTimeout(() => {
          timer.current = null;
          fired.current = true;
          callback.current(point, target);
        }, LONG_PRESS_MS);
      },
      onPointerMove: (event: PointerEvent) => {
        const origin = start.current;
        if (origin && Math.hypot(event.clientX - origin.x, event.clientY - origin.y) > MOVE_TOLERANCE_PX) cancel();
      },
      onPointerUp: cancel,
      onPointerCancel: cancel,
    }),
    [cancel],
  );
  const takeFired = useCallback(() => {
    const was = fired.current;
    fired.current = false;
    return was;
  }, []);
  return { handlers, takeFired };
}
