import { NAV_SNAP_THRESHOLD, NAV_WIDTH_COLLAPSED, NAV_WIDTH_MAX, NAV_WIDTH_MIN } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import type { KeyboardEvent, PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { clampNavWidth, isNavCollapsed } from '../../../state/ui';

const KEY_STEP = 16;

interface NavResizeHandleProps {
  width: number;
  /** Width while dragging (not yet kept). */
  onDrag: (width: number) => void;
  /** Width at release; the caller settles it (snap below the threshold) and keeps it. */
  onRelease: (width: number) => void;
}

/** The drawer's right edge: drag to resize, or focus it and use the arrow keys. */
export function NavResizeHandle({ width, onDrag, onRelease }: NavResizeHandleProps) {
  const { t } = useTranslation();

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    const startX = event.clientX;
    const startWidth = width;
    const widthAt = (clientX: number) => clampNavWidth(startWidth + clientX - startX);
    const body = document.body.style;
    const previous = { cursor: body.cursor, userSelect: body.userSelect };
    body.cursor = 'col-resize';
    body.userSelect = 'none';

    const move = (e: PointerEvent) => onDrag(widthAt(e.clientX));
    const end = (e: PointerEvent) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      body.cursor = previous.cursor;
      body.userSelect = previous.userSelect;
      onRelease(widthAt(e.clientX));
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'ArrowRight') {
      onRelease(isNavCollapsed(width) ? NAV_SNAP_THRESHOLD : width + KEY_STEP);
    } else if (event.key === 'ArrowLeft') {
      onRelease(width - KEY_STEP);
    } else if (event.key === 'Home') {
      onRelease(NAV_WIDTH_COLLAPSED);
    } else if (event.key === 'End') {
      onRelease(NAV_WIDTH_MAX);
    } else {
      return;
    }
    event.preventDefault();
  };

  return (
    <Box
      data-testid="nav-resize-handle"
      role="separator"
      aria-orientation="vertical"
      aria-label={t('resize_navigation')}
      aria-valuemin={NAV_WIDTH_MIN}
      aria-valuemax={NAV_WIDTH_MAX}
      aria-valuenow={width}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
      sx={{
        position: 'absolute',
        top: 0,
        right: 0,
        bottom: 0,
        width: 6,
        cursor: 'col-resize',
        zIndex: 1,
        touchAction: 'none',
        '&::after': {
          content: '""',
          position: 'absolute',
          top: 0,
          bottom: 0,
          right: 0,
          width: 2,
          bgcolor: 'transparent',
          transition: 'background-color 120ms',
        },
        '&:hover::after, &:focus-visible::after': { bgcolor: 'primary.main' },
        '&:focus-visible': { outline: 'none' },
      }}
    />
  );
}
