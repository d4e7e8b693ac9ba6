import { mdiTranslate } from '@mdi/js';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { useLocale, useSwitchLocale } from '../i18n/use-locale';
import { LOCALE_NAMES } from '../state/locale';
import { MdiIcon } from './mdi-icon';

/** Switches to the other language, showing that language's name. */
export function LanguageSwitchButton() {
  const { t } = useTranslation();
  const locale = useLocale();
  const switchLocale = useSwitchLocale();
  const other = locale === 'ko' ? 'en' : 'ko';
  return (
    <Button
      color="inherit"
      // The visible language name leads the accessible name (WCAG 2.5.3 label in name).
      aria-label={`${LOCALE_NAMES[other]} (${t('change_language')})`}
      startIcon={<MdiIcon path={mdiTranslate} />}
      onClick={() => switchLocale(other)}
      lang={other}
    >
      {LOCALE_NAMES[other]}
    </Button>
  );
}
