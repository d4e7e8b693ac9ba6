import useMediaQuery from '@mui/material/useMediaQuery';

/** The spec's rule: dialogs fill the screen under 768 px. */
export const FULL_SCREEN_DIALOG_QUERY = '(max-width: 767.95px)';

/**
 * Whether dialogs are full screen on this window. The theme makes it every dialog's
 * default; a dialog that lays itself out differently when full screen reads it here.
 */
export function useFullScreenDialog(): boolean {
  // noSsr: the first render already knows the width, so a dialog never opens small and jumps.
  return useMediaQuery(FULL_SCREEN_DIALOG_QUERY, { noSsr: true });
}
