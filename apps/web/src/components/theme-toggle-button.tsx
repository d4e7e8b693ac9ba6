import { mdiWeatherNight, mdiWeatherSunny } from '@mdi/js';
import IconButton from '@mui/material/IconButton';
import { LazyTooltip } from './lazy-tooltip';
import { useTranslation } from 'react-i18next';
import { setTheme, useResolvedTheme } from '../state/theme';
import { MdiIcon } from './mdi-icon';

/** Flips between light and dark; the choice is kept like the one made in the user menu. */
export function ThemeToggleButton() {
  const { t } = useTranslation();
  const mode = useResolvedTheme();
  const label = t('toggle_theme');
  return (
    <LazyTooltip title={label}>
      <IconButton aria-label={label} onClick={() => setTheme(mode === 'dark' ? 'light' : 'dark')}>
        <MdiIcon path={mode === 'dark' ? mdiWeatherSunny : mdiWeatherNight} />
      </IconButton>
    </LazyTooltip>
  );
}
