import type { MenuProps } from '@mui/material/Menu';
import { useState } from 'react';

type Place = { anchor: HTMLElement } | { position: { top: number; left: number } };

export interface RowMenu<T> {
  /** The row whose menu is open, or null. */
  row: T | null;
  /** Opens the menu below a row's button. */
  openFrom: (anchor: HTMLElement, row: T) => void;
  /** Opens the menu where a row was right-clicked. */
  openAt: (event: { clientX: number; clientY: number }, row: T) => void;
  /** A menu item's click handler: runs `action` on the row, then closes the menu. */
  pick: (action: (row: T) => void) => () => void;
  close: () => void;
  /** Spread onto MUI's `<Menu>`. */
  menuProps: Pick<MenuProps, 'anchorEl' | 'anchorReference' | 'anchorPosition' | 'open' | 'onClose'>;
}

/** The row menu of a table: opened from a row's button or by right-clicking the row. */
export function useRowMenu<T>(): RowMenu<T> {
  const [state, setState] = useState<{ row: T; place: Place } | null>(null);
  const close = () => setState(null);
  const place = state?.place;
  return {
    row: state?.row ?? null,
    openFrom: (anchor, row) => setState({ row, place: { anchor } }),
    openAt: (event, row) => setState({ row, place: { position: { top: event.clientY, left: event.clientX } } }),
    pick: (action) => () => {
      if (state) action(state.row);
      close();
    },
    close,
    menuProps: {
      anchorEl: place && 'anchor' in place ? place.anchor : null,
      anchorReference: place && 'position' in place ? 'anchorPosition' : 'anchorEl',
      anchorPosition: place && 'position' in place ? place.position : undefined,
      open: state !== null,
      onClose: close,
    },
  };
}
