import { PASSWORD_MAX_LENGTH, type AuthResponse, type MfaChallenge } from '@bogwan/contracts';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigation } from 'react-router';
import { ApiError } from '../../../api/client';
import { useLogin } from '../api/login';
import { SignInError } from './sign-in-error';
import { useEmailCheck } from './use-email-check';

interface PasswordSignInProps {
  email: string;
  onEmailChange: (email: string) => void;
  /** The server asked for a second factor. */
  onChallenge: (challenge: MfaChallenge) => void;
  onSignedIn: (auth: AuthResponse) => void;
}

/** Email and password; leads to the code step when the account has a second factor. */
export function PasswordSignIn({ email, onEmailChange, onChallenge, onSignedIn }: PasswordSignInProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const login = useLogin();
  const [password, setPassword] = useState('');
  // Stays busy after success while the next page loads.
  const busy = login.isPending || navigation.state !== 'idle';
  const filled = email.trim() !== '' && password !== '';
  const emailCheck = useEmailCheck(email);

  const clearError = () => {
    if (login.error) login.reset();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!filled || busy || !emailCheck.passes()) return;
    login.mutate(
      { email: email.trim(), password },
      {
        onSuccess: (result) => {
          if ('mfa' in result) onChallenge(result);
          else onSignedIn(result);
        },
      },
    );
  };

  const errorKey = login.error instanceof ApiError ? login.error.messageKey : login.error ? '' : null;

  return (
    <Stack component="form" spacing={2.5} noValidate onSubmit={onSubmit}>
      <TextField
        name="email"
        type="email"
        label={t('email')}
        autoComplete="username"
        autoFocus
        {...emailCheck.fieldProps}
        value={email}
        onChange={(event) => {
          onEmailChange(event.target.value);
          clearError();
        }}
      />
      <TextField
        name="password"
        type="password"
        label={t('password')}
        autoComplete="current-password"
        value={password}
        onChange={(event) => {
          setPassword(event.target.value);
          clearError();
        }}
        slotProps={{ htmlInput: { maxLength: PASSWORD_MAX_LENGTH * 4 } }}
      />
      {errorKey !== null && <SignInError messageKey={errorKey} />}
      <Button type="submit" variant="contained" size="large" disabled={!filled} loading={busy}>
        {t('login')}
      </Button>
    </Stack>
  );
}
