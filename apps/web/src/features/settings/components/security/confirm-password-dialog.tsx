import { PASSWORD_MAX_LENGTH } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../api/client';
import { messageText } from '../../../../i18n/keys';
import { useFullScreenDialog } from '../../../../components/use-full-screen-dialog';

interface ConfirmPasswordDialogProps {
  open: boolean;
  /** What the password is asked for, in the user's words (shown above the field). */
  description: string;
  /** Makes the change with the password; a rejection (wrong password, lockout) keeps the dialog open and shows why. */
  onConfirm: (currentPassword: string) => Promise<unknown>;
  onClose: () => void;
}

/**
 * Asks for the current password again before a change to how the account signs in (the
 * server refuses it without): the second factor, a new authenticator app, a fingerprint.
 */
export function ConfirmPasswordDialog({ open, description, onConfirm, onClose }: ConfirmPasswordDialogProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [errorKey, setErrorKey] = useState<string | null>(null);

  const close = () => {
    setPassword('');
    setErrorKey(null);
    onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (password === '' || pending) return;
    setPending(true);
    onConfirm(password).then(
      () => {
        setPending(false);
        close();
      },
      (error: unknown) => {
        setPending(false);
        setErrorKey(error instanceof ApiError ? error.messageKey : '');
      },
    );
  };

  return (
    <Dialog
      open={open}
      onClose={pending ? undefined : close}
      fullScreen={fullScreen}
      maxWidth={false}
      aria-labelledby="confirm-password-title"
      slotProps={{ paper: { sx: fullScreen ? undefined : { width: 440 } } }}
    >
      <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'contents' }}>
        <DialogTitle id="confirm-password-title">{t('reauth_title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{description}</DialogContentText>
          <TextField
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              setErrorKey(null);
            }}
            type="password"
            label={t('current_password')}
            autoComplete="current-password"
            autoFocus
            fullWidth
            error={errorKey !== null}
            helperText={errorKey !== null ? messageText(t, errorKey) : t('reauth_password_required')}
            slotProps={{ htmlInput: { maxLength: PASSWORD_MAX_LENGTH } }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={close} disabled={pending}>
            {t('cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={password === ''} loading={pending}>
            {t('reauth_confirm')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
