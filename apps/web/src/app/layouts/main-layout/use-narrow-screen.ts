import { NAV_HIDDEN_BELOW } from '@bogwan/contracts';
import useMediaQuery from '@mui/material/useMediaQuery';

/** True under 600 px, where the navigation drawer is hidden and opens as an overlay. */
export function useNarrowScreen(): boolean {
  return useMediaQuery(`(max-width: ${NAV_HIDDEN_BELOW - 0.02}px)`, { noSsr: true });
}
