import type { AuthResponse, MfaChallenge } from '@bogwan/contracts';
import { mdiArrowLeft } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigation } from 'react-router';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { OtpCodeField } from '../../../components/otp-code-field';
import { k } from '../../../i18n/keys';
import { useVerifyLoginCode } from '../api/verify-login-code';
import { SignInError } from './sign-in-error';

interface CodeStepProps {
  challenge: MfaChallenge;
  onSignedIn: (auth: AuthResponse) => void;
  /** Back to the password form, to start the sign-in again. */
  onStartOver: () => void;
}

/** Message key for a failed code check, per the spec's OTP rules. */
export function codeErrorKey(error: unknown): string {
  if (!(error instanceof ApiError)) return k('login_failure');
  if (error.status === 423) return k('login_attempt_restrict');
  if (error.status === 401) return error.messageKey === 'otp_code_expired' ? k('otp_code_expired') : k('login_failure_otp');
  if (error.status === 0) return k('request_error_message');
  if (error.status === 429) return k('too_many_requests_message');
  return k('login_failure');
}

/** Second step of a sign-in: the 6-digit code from the email or the authenticator app. */
export function CodeStep({ challenge, onSignedIn, onStartOver }: CodeStepProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const verify = useVerifyLoginCode();
  const [code, setCode] = useState('');
  const busy = verify.isPending || verify.isSuccess || navigation.state !== 'idle';
  const errorKey = verify.error ? codeErrorKey(verify.error) : null;
  // After these the attempt cannot go on: only starting over helps.
  const finished = errorKey === 'login_attempt_restrict' || errorKey === 'otp_code_expired';

  const submit = (otp: string) => {
    verify.mutate(
      { email: challenge.email, otp },
      {
        onSuccess: onSignedIn,
        onError: () => setCode(''),
      },
    );
  };

  return (
    <Stack spacing={2.5}>
      <div>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
          {t('login_code_title')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.75 }}>
          {challenge.mfa === 'email' ? t('login_code_email_description') : t('login_code_otp_description')}
        </Typography>
      </div>
      {challenge.mfa === 'email' && (
        <Alert severity="info" sx={{ wordBreak: 'keep-all' }}>
          {t('otp_code_sent_message')}
          <Box component="strong" sx={{ display: 'block', mt: 0.5, wordBreak: 'break-all' }}>
            {challenge.email}
          </Box>
        </Alert>
      )}
      <OtpCodeField
        label={t('otp_code')}
        value={code}
        onChange={(value) => {
          setCode(value);
          if (verify.error) verify.reset();
        }}
        onComplete={submit}
        disabled={busy || finished}
        helperText={t('otp_code_help')}
        autoFocus
      />
      {errorKey && <SignInError messageKey={errorKey} />}
      <Button variant={finished ? 'contained' : 'text'} startIcon={<MdiIcon path={mdiArrowLeft} />} onClick={onStartOver} disabled={busy}>
        {t('login_start_over')}
      </Button>
    </Stack>
  );
}
