import { PASSWORD_MAX_LENGTH, type AuthResponse } from '@bogwan/contracts';
import { mdiFingerprint } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigation } from 'react-router';
import { ApiError } from '../../../api/client';
import { CeremonyError, createAssertion, createCredential, fingerprintSupported } from '../../../api/webauthn';
import { MdiIcon } from '../../../components/mdi-icon';
import { k } from '../../../i18n/keys';
import { getFingerprintOptions, verifyFingerprint } from '../api/fingerprint-login';
import { SignInError } from './sign-in-error';
import { useEmailCheck } from './use-email-check';

interface FingerprintSignInProps {
  email: string;
  onEmailChange: (email: string) => void;
  onSignedIn: (auth: AuthResponse) => void;
}

/** What one press of the button led to. */
type Outcome = { kind: 'signed-in'; auth: AuthResponse } | { kind: 'needs-password' };

/**
 * Options call, then the browser's fingerprint dialog, then verification. An account with
 * no fingerprint yet registers one on its first fingerprint sign-in, proven by its password.
 */
async function fingerprintSignIn(email: string, password: string | null): Promise<Outcome> {
  const { register, options } = await getFingerprintOptions(email);
  if (!register) {
    const response = await createAssertion(options);
    return { kind: 'signed-in', auth: await verifyFingerprint({ email, response }) };
  }
  if (password === null) return { kind: 'needs-password' };
  const response = await createCredential(options);
  return { kind: 'signed-in', auth: await verifyFingerprint({ email, response, password }) };
}

function errorKeyOf(error: unknown): string {
  if (error instanceof CeremonyError) return error.alreadyRegistered ? k('fingerprint_already_registered') : k('fingerprint_cancelled');
  if (error instanceof ApiError) return error.messageKey;
  return k('login_failure_fingerprint');
}

/** Sign-in with a fingerprint (a WebAuthn authenticator). */
export function FingerprintSignIn({ email, onEmailChange, onSignedIn }: FingerprintSignInProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [supported] = useState(fingerprintSupported);
  const [password, setPassword] = useState('');
  /** The email the server said has no fingerprint yet; the password field shows for it. */
  const [firstUseEmail, setFirstUseEmail] = useState<string | null>(null);
  const needsPassword = firstUseEmail !== null && firstUseEmail === email.trim();

  const signIn = useMutation({
    mutationFn: ({ address, secret }: { address: string; secret: string | null }) => fingerprintSignIn(address, secret),
    onSuccess: (outcome, { address }) => {
      if (outcome.kind === 'needs-password') setFirstUseEmail(address);
      else onSignedIn(outcome.auth);
    },
  });
  const busy = signIn.isPending || navigation.state !== 'idle';
  const filled = email.trim() !== '' && (!needsPassword || password !== '');
  const emailCheck = useEmailCheck(email);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!filled || busy || !supported || !emailCheck.passes()) return;
    signIn.mutate({ address: email.trim(), secret: needsPassword ? password : null });
  };

  const clearError = () => {
    if (signIn.error) signIn.reset();
  };

  return (
    <Stack component="form" spacing={2.5} noValidate onSubmit={onSubmit}>
      {!supported && <Alert severity="warning">{t('fingerprint_unsupported')}</Alert>}
      <TextField
        name="email"
        type="email"
        label={t('email')}
        autoComplete="username webauthn"
        autoFocus
        {...emailCheck.fieldProps}
        value={email}
        onChange={(event) => {
          onEmailChange(event.target.value);
          clearError();
        }}
      />
      {needsPassword && (
        <>
          <Alert severity="info" sx={{ wordBreak: 'keep-all' }}>
            {t('fingerprint_first_use_message')}
          </Alert>
          <TextField
            name="password"
            type="password"
            label={t('password')}
            autoComplete="current-password"
            autoFocus
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              clearError();
            }}
            slotProps={{ htmlInput: { maxLength: PASSWORD_MAX_LENGTH * 4 } }}
          />
        </>
      )}
      {signIn.error && <SignInError messageKey={errorKeyOf(signIn.error)} />}
      <Button type="submit" variant="contained" size="large" disabled={!filled || !supported} loading={busy} startIcon={<MdiIcon path={mdiFingerprint} />}>
        {needsPassword ? t('fingerprint_register_and_login') : t('fingerprint_login')}
      </Button>
    </Stack>
  );
}
