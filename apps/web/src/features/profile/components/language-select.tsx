import { ACCOUNT_LANGUAGES, type AccountLanguage } from '@bogwan/contracts';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../components/notify';
import { messageText } from '../../../i18n/keys';
import { useSwitchLocale } from '../../../i18n/use-locale';
import { LOCALE_NAMES } from '../../../state/locale';
import { useUpdateOwnLanguage } from '../api/update-language';

/**
 * The account's language: e-mails from the server are written in it, and the interface
 * switches to it at once (the interface language of a signed-in account is its language).
 */
export function LanguageSelect({ language }: { language: AccountLanguage }) {
  const { t } = useTranslation();
  const update = useUpdateOwnLanguage();
  const switchLocale = useSwitchLocale();
  return (
    <TextField
      select
      label={t('profile_language')}
      value={language}
      helperText={t('profile_language_help')}
      fullWidth
      sx={{ mt: 1 }}
      disabled={update.isPending}
      onChange={(event) => {
        const chosen = event.target.value as AccountLanguage;
        update.mutate(chosen, {
          onSuccess: () => switchLocale(chosen),
          onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error'),
        });
      }}
    >
      {ACCOUNT_LANGUAGES.map((option) => (
        <MenuItem key={option} value={option} lang={option}>
          {LOCALE_NAMES[option]}
        </MenuItem>
      ))}
    </TextField>
  );
}
