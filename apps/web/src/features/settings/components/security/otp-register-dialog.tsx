import type { OtpQrResponse } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../api/client';
import { notify } from '../../../../components/notify';
import { OtpCodeField } from '../../../../components/otp-code-field';
import { k, messageText } from '../../../../i18n/keys';
import { OtpRejected, useConfirmOtpApp } from '../../api/otp-app';
import { useFullScreenDialog } from '../../../../components/use-full-screen-dialog';

/** Message key for a failed confirmation, per the spec's OTP rules. */
function confirmErrorKey(error: unknown): string {
  if (error instanceof OtpRejected) return k('login_failure_otp');
  if (error instanceof ApiError) {
    if (error.status === 423) return k('login_attempt_restrict');
    if (error.status === 401 || error.status === 400) return k('login_failure_otp');
    return error.messageKey;
  }
  return k('login_failure');
}

interface OtpRegisterDialogProps {
  /** The new (pending) secret, asked for with the current password; the dialog is open while there is one. */
  qr: OtpQrResponse | null;
  email: string;
  onClose: () => void;
}

/** Registers an authenticator app: QR code (and the key to type in), then a 6-digit code from the app. */
export function OtpRegisterDialog({ qr, email, onClose }: OtpRegisterDialogProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const confirm = useConfirmOtpApp();
  const [code, setCode] = useState('');

  const close = () => {
    setCode('');
    confirm.reset();
    onClose();
  };

  const submit = (otp: string) => {
    confirm.mutate(
      { email, otp },
      {
        onSuccess: (message) => {
          notify(messageText(t, message));
          close();
        },
        onError: () => setCode(''),
      },
    );
  };

  const confirmError = confirm.error ? confirmErrorKey(confirm.error) : null;

  return (
    <Dialog
      open={qr !== null}
      onClose={close}
      fullScreen={fullScreen}
      maxWidth={false}
      aria-labelledby="otp-register-title"
      slotProps={{ paper: { sx: fullScreen ? undefined : { width: 480 } } }}
    >
      <DialogTitle id="otp-register-title">{t('security_otp_register_title')}</DialogTitle>
      <DialogContent>
        {qr && (
          <Stack spacing={2.5}>
            <Typography variant="body2">{t('security_otp_scan_message')}</Typography>
            <Box
              component="img"
              src={qr.qrCode}
              alt={t('security_otp_qr_alt')}
              sx={{ width: 200, height: 200, alignSelf: 'center', bgcolor: '#fff', p: 1, borderRadius: 2, border: 1, borderColor: 'divider' }}
            />
            <div>
              <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }}>
                {t('security_otp_secret')}
              </Typography>
              <Typography data-testid="otp-secret" sx={{ fontFamily: 'monospace', fontSize: 15, wordBreak: 'break-all', letterSpacing: '0.06em' }}>
                {qr.secret}
              </Typography>
            </div>
            <OtpCodeField
              label={t('otp_code')}
              value={code}
              onChange={(value) => {
                setCode(value);
                if (confirm.error) confirm.reset();
              }}
              onComplete={submit}
              disabled={confirm.isPending}
              error={confirmError ? messageText(t, confirmError) : null}
              helperText={t('otp_code_help')}
              autoFocus
            />
          </Stack>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={close}>{t('cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}
