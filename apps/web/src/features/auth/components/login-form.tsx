import { PASSWORD_MAX_LENGTH } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useNavigation } from 'react-router';
import { ApiError } from '../../../api/client';
import { messageText } from '../../../i18n/keys';
import { useLocalePath } from '../../../i18n/use-locale';
import { setAuth } from '../../../state/auth';
import { useLogin } from '../api/login';
import { useFieldState } from './use-field-state';

/** Email and password sign-in. */
export function LoginForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const navigation = useNavigation();
  const login = useLogin();
  // Stays busy after success while the next page loads.
  const busy = login.isPending || navigation.state !== 'idle';
  const { reset, error } = login;
  const clearServerError = useCallback(() => {
    if (error) reset();
  }, [error, reset]);
  const { values, bind } = useFieldState({ email: '', password: '' }, clearServerError);
  const filled = values.email.trim() !== '' && values.password !== '';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!filled || busy) return;
    login.mutate(
      { email: values.email.trim(), password: values.password },
      {
        onSuccess: (result) => {
          setAuth(result);
          void navigate(localePath('/'), { replace: true });
        },
      },
    );
  };

  const serverError = login.error instanceof ApiError ? login.error.messageKey : login.error ? '' : null;

  return (
    <Stack component="form" spacing={2.5} noValidate onSubmit={onSubmit}>
      <div>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
          {t('login_title')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.75 }}>
          {t('login_description')}
        </Typography>
      </div>
      <TextField {...bind('email')} type="email" label={t('email')} autoComplete="username" autoFocus />
      <TextField
        {...bind('password')}
        type="password"
        label={t('password')}
        autoComplete="current-password"
        slotProps={{ htmlInput: { maxLength: PASSWORD_MAX_LENGTH * 4 } }}
      />
      {serverError !== null && <Alert severity="error">{messageText(t, serverError)}</Alert>}
      <Button type="submit" variant="contained" size="large" disabled={!filled} loading={busy}>
        {t('login')}
      </Button>
    </Stack>
  );
}
