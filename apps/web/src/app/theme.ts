import { PRIMARY_DARK, PRIMARY_LIGHT } from '@bogwan/contracts';
import { alpha, createTheme, lighten, type Theme } from '@mui/material/styles';
import type { PaletteMode } from '../state/theme';
import halfwidthFormsFont from './fonts/bogwan-halfwidth-forms.woff?url';

declare module '@mui/material/styles' {
  interface PaletteColor {
    /** The colour as text or an icon on the page's background (reaches 4.5:1). */
    text?: string;
  }
  interface SimplePaletteColorOptions {
    text?: string;
  }
}

// 'Pretendard Variable' ships with the app (see main.tsx), so Korean renders on any machine.
// It lacks the halfwidth forms ｡ ｢ ｣ ､ ･ (U+FF61-FF65) Korean documents use; a 1 KB font
// drawn from Pretendard's own brackets fills them (apps/web/build/halfwidth-forms-font.py).
const HALFWIDTH_FORMS = 'Bogwan Halfwidth Forms';
const FONT_FAMILY = [
  '"Pretendard Variable"',
  'Pretendard',
  `"${HALFWIDTH_FORMS}"`,
  '"Noto Sans KR"',
  '"Apple SD Gothic Neo"',
  '"Malgun Gothic"',
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  'sans-serif',
].join(',');

/**
 * The spec's primary colours stay for fills and outlines; as text or an icon they fall
 * short of 4.5:1 (#1e88e5 on white is 3.7:1), so text uses a darker shade of the same hue
 * on the light theme (#1565c0, 5.8:1 on white) and a lighter one on the dark theme
 * (#64b5f6, 8.5:1 on #121212).
 */
export const PRIMARY_TEXT: Record<PaletteMode, string> = { light: '#1565c0', dark: '#64b5f6' };

/**
 * Text on a filled colour takes black or white, whichever reaches 4.5:1 (MUI's
 * recommended threshold; its default of 3 put white on #1e88e5).
 */
const CONTRAST_THRESHOLD = 4.5;

/** The Material theme for one palette mode, with the spec's primary colours. */
export function createAppTheme(mode: PaletteMode): Theme {
  const primaryText = PRIMARY_TEXT[mode];
  const asText = { color: primaryText };
  const primaryMain = mode === 'dark' ? PRIMARY_DARK : PRIMARY_LIGHT;
  return createTheme({
    palette: {
      mode,
      contrastThreshold: CONTRAST_THRESHOLD,
      primary: { main: primaryMain, text: primaryText },
      ...(mode === 'light' ? { background: { default: '#f5f7fa', paper: '#ffffff' } } : {}),
    },
    shape: { borderRadius: 8 },
    typography: { fontFamily: FONT_FAMILY, button: { textTransform: 'none', fontWeight: 600 } },
    components: {
      // Browsers give form controls their own font (system-ui) instead of the page's; a
      // plain ButtonBase (the list's column headers) then drew Korean as empty boxes on
      // machines without a Korean system font. Every control uses the bundled font.
      MuiCssBaseline: {
        styleOverrides: {
          'button, input, select, textarea': { fontFamily: 'inherit' },
          '@font-face': {
            fontFamily: HALFWIDTH_FORMS,
            src: `url(${halfwidthFormsFont}) format('woff')`,
            unicodeRange: 'U+FF61-FF65',
            fontDisplay: 'swap',
          },
        },
      },
      MuiButton: {
        defaultProps: { disableElevation: true },
        styleOverrides: {
          root: {
            variants: [
              { props: { color: 'primary' }, style: { '--variant-textColor': primaryText, '--variant-outlinedColor': primaryText } },
              // Hovered, a filled primary button keeps its dark label readable: the fill turns
              // lighter, not darker (#1565c0 under a dark label is 3.6:1).
              { props: { variant: 'contained', color: 'primary' }, style: { '&:hover': { backgroundColor: lighten(primaryMain, 0.15) } } },
            ],
          },
        },
      },
      // Primary as text or an icon: the readable shade.
      MuiIconButton: { styleOverrides: { root: { variants: [{ props: { color: 'primary' }, style: asText }] } } },
      MuiSvgIcon: { styleOverrides: { root: { variants: [{ props: { color: 'primary' }, style: asText }] } } },
      MuiTypography: { styleOverrides: { root: { variants: [{ props: { color: 'primary' }, style: asText }] } } },
      MuiLink: {
        styleOverrides: {
          root: {
            variants: [{ props: { color: 'primary' }, style: { ...asText, textDecorationColor: alpha(primaryText, 0.4) } }],
          },
        },
      },
      // An outlined chip's label is its colour on the page: the primary text shade, and the
      // darker (light theme) or lighter (dark theme) shade of the status colours.
      MuiChip: {
        styleOverrides: {
          root: ({ theme }) => ({
            variants: [
              { props: { variant: 'outlined', color: 'primary' }, style: asText },
              ...(['secondary', 'info', 'success', 'warning', 'error'] as const).map((color) => ({
                props: { variant: 'outlined' as const, color },
                style: { color: mode === 'dark' ? theme.palette[color].light : theme.palette[color].dark },
              })),
            ],
          }),
        },
      },
      // A table that scrolls sideways can be scrolled from the keyboard.
      MuiTableContainer: { defaultProps: { tabIndex: 0 } as object },
      MuiTab: { styleOverrides: { root: { '&.Mui-selected': asText } } },
      MuiFormLabel: { styleOverrides: { root: { '&.Mui-focused:not(.Mui-error)': asText } } },
      MuiToggleButton: { styleOverrides: { root: { variants: [{ props: { color: 'primary' }, style: { '&.Mui-selected': asText } }] } } },
      MuiTooltip: { defaultProps: { arrow: true } },
      // A badge's number is decoration: the control it sits on says the count in its own
      // label ("알림, 읽지 않음 3"), so the number is not read twice and the label still
      // contains all the text a speech user can see (WCAG 2.5.3).
      // A hidden badge (count 0) leaves the page, so its "0" is not visible text either.
      MuiBadge: {
        defaultProps: { slotProps: { badge: { 'aria-hidden': true } } },
        styleOverrides: { invisible: { display: 'none' } },
      },
    },
  });
}
