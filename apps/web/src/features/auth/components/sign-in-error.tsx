import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { useTranslation } from 'react-i18next';
import { messageText } from '../../../i18n/keys';

/** A sign-in failure by message key; a restricted account gets a titled, prominent alert. */
export function SignInError({ messageKey }: { messageKey: string }) {
  const { t } = useTranslation();
  if (messageKey === 'login_attempt_restrict') {
    return (
      <Alert severity="error" variant="filled" role="alert" sx={{ wordBreak: 'keep-all' }}>
        <AlertTitle>{t('login_restricted_title')}</AlertTitle>
        {t('login_attempt_restrict')}
      </Alert>
    );
  }
  return (
    <Alert severity="error" role="alert" sx={{ wordBreak: 'keep-all' }}>
      {messageText(t, messageKey)}
    </Alert>
  );
}
