import type { MfaChallenge } from '@bogwan/contracts';
import { mdiFingerprint, mdiFormTextboxPassword } from '@mdi/js';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { CodeStep } from './code-step';
import { FingerprintSignIn } from './fingerprint-sign-in';
import { PasswordSignIn } from './password-sign-in';
import { useFinishSignIn } from './use-finish-sign-in';

type Method = 'password' | 'fingerprint';

/** Sign-in: choice of method (password by default, or fingerprint), then the code step if asked. */
export function LoginForm() {
  const { t } = useTranslation();
  const finish = useFinishSignIn();
  const [method, setMethod] = useState<Method>('password');
  // Kept when switching methods, so the address is typed once.
  const [email, setEmail] = useState('');
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);

  if (challenge) return <CodeStep challenge={challenge} onSignedIn={finish} onStartOver={() => setChallenge(null)} />;

  return (
    <Stack spacing={2.5}>
      <div>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
          {t('login_title')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.75 }}>
          {method === 'password' ? t('login_description') : t('login_fingerprint_description')}
        </Typography>
      </div>
      <ToggleButtonGroup
        exclusive
        fullWidth
        size="small"
        color="primary"
        aria-label={t('login_method')}
        value={method}
        onChange={(_event, next: Method | null) => {
          if (next) setMethod(next);
        }}
      >
        <ToggleButton value="password" sx={{ gap: 1 }}>
          <MdiIcon path={mdiFormTextboxPassword} fontSize="small" />
          {t('login_method_password')}
        </ToggleButton>
        <ToggleButton value="fingerprint" sx={{ gap: 1 }}>
          <MdiIcon path={mdiFingerprint} fontSize="small" />
          {t('login_method_fingerprint')}
        </ToggleButton>
      </ToggleButtonGroup>
      {method === 'password' ? (
        <PasswordSignIn email={email} onEmailChange={setEmail} onChallenge={setChallenge} onSignedIn={finish} />
      ) : (
        <FingerprintSignIn email={email} onEmailChange={setEmail} onSignedIn={finish} />
      )}
    </Stack>
  );
}
