import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { messageText } from '../../../i18n/keys';
import { useSetupStatus } from '../api/get-setup-status';
import { LoginForm } from './login-form';
import { SetupForm } from './setup-form';

/** The sign-in screen's body: the first-run setup form while no account exists, else sign-in. */
export function SignInPanel() {
  const { t } = useTranslation();
  const status = useSetupStatus();

  if (status.isPending) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  }

  if (status.isError) {
    const key = status.error instanceof ApiError ? status.error.messageKey : null;
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void status.refetch()}>
            {t('retry')}
          </Button>
        }
      >
        {messageText(t, key)}
      </Alert>
    );
  }

  return status.data.required ? <SetupForm /> : <LoginForm />;
}
