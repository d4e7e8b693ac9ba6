import type { OtpQrResponse } from '@bogwan/contracts';
import { mdiCellphoneKey, mdiFingerprint, mdiFormTextboxPassword, mdiShieldKeyOutline } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../api/client';
import { CeremonyError, fingerprintSupported } from '../../../../api/webauthn';
import { notify } from '../../../../components/notify';
import { k, messageText } from '../../../../i18n/keys';
import { useAuth } from '../../../../state/auth';
import { useFactors } from '../../api/get-factors';
import { useOtpQrCode } from '../../api/otp-app';
import { useRegisterFingerprint } from '../../api/register-fingerprint';
import { AppPasswordsSection } from './app-passwords-section';
import { ChangePasswordDialog } from './change-password-dialog';
import { ConfirmPasswordDialog } from './confirm-password-dialog';
import { OtpRegisterDialog } from './otp-register-dialog';
import { SecondFactorChoice } from './second-factor-choice';
import { SettingRow } from './setting-row';

/** Settings → Security: password, authenticator app, second factor, fingerprints, app passwords. */
export function SecuritySection() {
  const { t } = useTranslation();
  const auth = useAuth();
  const factors = useFactors();
  const registerFingerprint = useRegisterFingerprint();
  const otpQr = useOtpQrCode();
  const [passwordOpen, setPasswordOpen] = useState(false);
  // The change the current password is being asked for, then the new authenticator secret to show.
  const [confirming, setConfirming] = useState<'otp' | 'fingerprint' | null>(null);
  const [newOtp, setNewOtp] = useState<OtpQrResponse | null>(null);
  const [supported] = useState(fingerprintSupported);
  if (!auth) return null;

  const onConfirmed = async (currentPassword: string) => {
    if (confirming === 'otp') {
      // A new secret each time; a previous pending one is replaced.
      setNewOtp(await otpQr.mutateAsync({ email: auth.user.email, currentPassword }));
      return;
    }
    try {
      notify(messageText(t, await registerFingerprint.mutateAsync({ userId: auth.user._id, currentPassword })));
    } catch (error) {
      // The browser's fingerprint dialog was dismissed: nothing to retry with the password.
      if (error instanceof CeremonyError) notify(t(error.alreadyRegistered ? 'fingerprint_already_registered' : 'fingerprint_cancelled'), 'warning');
      else throw error;
    }
  };

  let factorRows;
  if (factors.isPending) {
    factorRows = (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  } else if (factors.isError) {
    factorRows = (
      <Alert
        severity="error"
        sx={{ my: 2 }}
        action={
          <Button color="inherit" size="small" onClick={() => void factors.refetch()}>
            {t('retry')}
          </Button>
        }
      >
        {messageText(t, factors.error instanceof ApiError ? factors.error.messageKey : null)}
      </Alert>
    );
  } else {
    const { otpRegistered, fingerprints, mfa } = factors.data;
    factorRows = (
      <>
        <SettingRow
          icon={mdiCellphoneKey}
          title={t('security_otp_app')}
          description={
            <Stack direction="row" useFlexGap spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <span>{t('security_otp_app_description')}</span>
              <Chip
                size="small"
                variant="outlined"
                color={otpRegistered ? 'success' : 'default'}
                label={otpRegistered ? t('security_registered') : t('security_not_registered')}
              />
            </Stack>
          }
          action={
            <Button variant="outlined" onClick={() => setConfirming('otp')}>
              {otpRegistered ? t('security_otp_register_again') : t('security_otp_register')}
            </Button>
          }
        />
        <Divider />
        <SettingRow icon={mdiShieldKeyOutline} title={t('security_second_factor')} description={t('security_second_factor_description')}>
          <SecondFactorChoice mfa={mfa} otpRegistered={otpRegistered} />
        </SettingRow>
        <Divider />
        <SettingRow
          icon={mdiFingerprint}
          title={t('security_fingerprint')}
          description={
            <>
              {t('security_fingerprint_description')}
              <Box component="span" data-testid="fingerprint-count" sx={{ display: 'block', mt: 0.5, color: 'text.primary' }}>
                {t('security_fingerprint_count', { n: fingerprints })}
              </Box>
              {!supported && (
                <Box component="span" sx={{ display: 'block', mt: 0.5, color: 'warning.main' }}>
                  {t('fingerprint_unsupported')}
                </Box>
              )}
            </>
          }
          action={
            <Button variant="outlined" onClick={() => setConfirming('fingerprint')} disabled={!supported} loading={registerFingerprint.isPending}>
              {t('security_fingerprint_register')}
            </Button>
          }
        />
      </>
    );
  }

  return (
    <Box sx={{ maxWidth: 760 }}>
      <SettingRow
        icon={mdiFormTextboxPassword}
        title={t('password')}
        description={t('security_password_description')}
        action={
          <Button variant="outlined" onClick={() => setPasswordOpen(true)}>
            {t('security_change_password')}
          </Button>
        }
      />
      <Divider />
      {factorRows}
      <Divider />
      <AppPasswordsSection email={auth.user.email} />
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
      <ConfirmPasswordDialog
        open={confirming !== null}
        description={t(confirming === 'fingerprint' ? k('reauth_fingerprint_description') : k('reauth_otp_description'))}
        onConfirm={onConfirmed}
        onClose={() => setConfirming(null)}
      />
      <OtpRegisterDialog qr={newOtp} email={auth.user.email} onClose={() => setNewOtp(null)} />
    </Box>
  );
}
