import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_SPECIALS, checkEmail, checkName, checkPassword } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useNavigation } from 'react-router';
import { ApiError } from '../../../api/client';
import { k, messageText } from '../../../i18n/keys';
import { useLocalePath } from '../../../i18n/use-locale';
import { setAuth } from '../../../state/auth';
import { useSetupAccount } from '../api/setup-account';
import { useFieldState } from './use-field-state';

type FieldName = 'token' | 'name' | 'email' | 'password' | 'passwordConfirm';

/** Creates the first account (role MASTER) with the setup token the server printed. */
export function SetupForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const navigation = useNavigation();
  const setup = useSetupAccount();
  // Stays busy after success while the next page loads.
  const busy = setup.isPending || navigation.state !== 'idle';
  const { reset, error } = setup;
  const clearServerError = useCallback(() => {
    if (error) reset();
  }, [error, reset]);
  const { values, touched, bind } = useFieldState<FieldName>({ token: '', name: '', email: '', password: '', passwordConfirm: '' }, clearServerError);

  const errors = {
    token: values.token.trim() ? null : k('setup_token_required'),
    name: checkName(values.name),
    email: checkEmail(values.email),
    password: checkPassword(values.password),
    passwordConfirm: values.passwordConfirm === values.password ? null : k('rules_password_not_match'),
  };
  const valid = Object.values(errors).every((error) => error === null);
  const shown = (name: FieldName) => (touched[name] ? errors[name] : null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || busy) return;
    setup.mutate(
      { token: values.token.trim(), name: values.name.trim(), email: values.email.trim(), password: values.password },
      {
        onSuccess: (result) => {
          setAuth(result);
          void navigate(localePath('/'), { replace: true });
        },
      },
    );
  };

  const serverError = setup.error instanceof ApiError ? setup.error.messageKey : setup.error ? '' : null;
  const passwordHelp = t('password_help', {
    min: PASSWORD_MIN_LENGTH,
    max: PASSWORD_MAX_LENGTH,
    specials: PASSWORD_SPECIALS.split('').join(' '),
  });

  const tokenError = shown('token');
  const nameError = shown('name');
  const emailError = shown('email');
  const passwordError = shown('password');
  const confirmError = shown('passwordConfirm');

  return (
    <Stack component="form" spacing={2.5} noValidate onSubmit={onSubmit}>
      <div>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
          {t('setup_title')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.75 }}>
          {t('setup_description')}
        </Typography>
      </div>
      <TextField
        {...bind('token')}
        label={t('setup_token')}
        autoComplete="off"
        autoFocus
        error={Boolean(tokenError)}
        helperText={tokenError ? t(tokenError) : t('setup_token_help')}
        slotProps={{ htmlInput: { spellCheck: false } }}
      />
      <TextField {...bind('name')} label={t('name')} autoComplete="name" error={Boolean(nameError)} helperText={nameError ? t(nameError) : undefined} />
      <TextField
        {...bind('email')}
        type="email"
        label={t('email')}
        autoComplete="email"
        error={Boolean(emailError)}
        helperText={emailError ? t(emailError) : undefined}
      />
      <TextField
        {...bind('password')}
        type="password"
        label={t('password')}
        autoComplete="new-password"
        error={Boolean(passwordError)}
        helperText={passwordError ? t(passwordError) : passwordHelp}
        slotProps={{ htmlInput: { maxLength: PASSWORD_MAX_LENGTH } }}
      />
      <TextField
        {...bind('passwordConfirm')}
        type="password"
        label={t('password_confirm')}
        autoComplete="new-password"
        error={Boolean(confirmError)}
        helperText={confirmError ? t(confirmError) : undefined}
        slotProps={{ htmlInput: { maxLength: PASSWORD_MAX_LENGTH } }}
      />
      {serverError !== null && <Alert severity="error">{messageText(t, serverError)}</Alert>}
      <Button type="submit" variant="contained" size="large" disabled={!valid} loading={busy}>
        {t('setup_submit')}
      </Button>
    </Stack>
  );
}
