import { PRIMARY_DARK, PRIMARY_LIGHT } from '@bogwan/contracts';
import { createTheme, type Theme } from '@mui/material/styles';
import type { PaletteMode } from '../state/theme';

// 'Pretendard Variable' ships with the app (see main.tsx), so Korean renders on any machine.
const FONT_FAMILY = [
  '"Pretendard Variable"',
  'Pretendard',
  '"Noto Sans KR"',
  '"Apple SD Gothic Neo"',
  '"Malgun Gothic"',
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  'sans-serif',
].join(',');

/** The Material theme for one palette mode, with the spec's primary colours. */
export function createAppTheme(mode: PaletteMode): Theme {
  return createTheme({
    palette: {
      mode,
      primary: { main: mode === 'dark' ? PRIMARY_DARK : PRIMARY_LIGHT },
      ...(mode === 'light' ? { background: { default: '#f5f7fa', paper: '#ffffff' } } : {}),
    },
    shape: { borderRadius: 8 },
    typography: { fontFamily: FONT_FAMILY, button: { textTransform: 'none', fontWeight: 600 } },
    components: {
      // Browsers give form controls their own font (system-ui) instead of the page's; a
      // plain ButtonBase (the list's column headers) then drew Korean as empty boxes on
      // machines without a Korean system font. Every control uses the bundled font.
      MuiCssBaseline: { styleOverrides: { 'button, input, select, textarea': { fontFamily: 'inherit' } } },
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiTooltip: { defaultProps: { arrow: true } },
    },
  });
}
