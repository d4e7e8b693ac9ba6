import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_SPECIALS, checkPassword } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../api/client';
import { notify } from '../../../../components/notify';
import { k, messageText } from '../../../../i18n/keys';
import { updateAuthUser, useAuth } from '../../../../state/auth';
import { useChangePassword } from '../../api/change-password';
import { useFullScreenDialog } from '../../../../components/use-full-screen-dialog';

type Field = 'password' | 'newPassword' | 'confirm';
const EMPTY: Record<Field, string> = { password: '', newPassword: '', confirm: '' };

interface ChangePasswordDialogProps {
  open: boolean;
  onClose: () => void;
  /**
   * The account still has its initial password: the dialog cannot be dismissed, says why,
   * and offers `onSignOut` instead of Cancel.
   */
  required?: boolean;
  onSignOut?: () => void;
}

/** Change password: current, new and confirmation; Save is off while any is empty, Enter submits. */
export function ChangePasswordDialog({ open, onClose, required = false, onSignOut }: ChangePasswordDialogProps) {
  const { t } = useTranslation();
  const auth = useAuth();
  const fullScreen = useFullScreenDialog();
  const change = useChangePassword();
  const [values, setValues] = useState(EMPTY);
  const [checked, setChecked] = useState(false);

  const filled = values.password !== '' && values.newPassword !== '' && values.confirm !== '';
  const newError = values.newPassword ? checkPassword(values.newPassword) : null;
  const confirmError = values.confirm && values.confirm !== values.newPassword ? k('rules_password_not_match') : null;
  const serverKey = change.error instanceof ApiError ? change.error.messageKey : change.error ? '' : null;
  // 401: the current password is wrong; 400: the new one breaks the rules. Both belong to a field.
  const currentError = serverKey === 'not_matched_origin_password' ? k('not_matched_origin_password') : null;
  const serverNewError = serverKey === 'rules_password_pattern' ? k('rules_password_pattern') : null;
  const otherError = serverKey !== null && !currentError && !serverNewError ? serverKey : null;
  // The rule shows once the user moved on to the confirmation or tried to save.
  const shownNewError = ((checked || values.confirm !== '') && newError) || serverNewError;

  const close = () => {
    setValues(EMPTY);
    setChecked(false);
    change.reset();
    onClose();
  };

  const bind = (field: Field) => ({
    value: values[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      setValues((current) => ({ ...current, [field]: event.target.value }));
      if (change.error) change.reset();
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (!filled || newError || confirmError || !auth || change.isPending) return;
    change.mutate(
      { _id: auth.user._id, password: values.password, newPassword: values.newPassword },
      {
        onSuccess: () => {
          notify(t('password_change_complete_message'));
          // The initial password is gone: the account may use the app now.
          if (auth.user.mustChangePassword) updateAuthUser({ ...auth.user, mustChangePassword: false });
          close();
        },
      },
    );
  };

  return (
    <Dialog
      open={open}
      onClose={required ? undefined : close}
      fullScreen={fullScreen}
      maxWidth={false}
      aria-labelledby="change-password-title"
      slotProps={{ paper: { sx: fullScreen ? undefined : { width: 480 } } }}
    >
      <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'contents' }}>
        <DialogTitle id="change-password-title">{t('security_change_password')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {required && <Alert severity="info">{t('password_change_required_notice')}</Alert>}
            <TextField
              {...bind('password')}
              type="password"
              label={t('current_password')}
              autoComplete="current-password"
              autoFocus
              error={Boolean(currentError)}
              helperText={currentError ? t(currentError) : undefined}
              slotProps={{ htmlInput: { maxLength: PASSWORD_MAX_LENGTH } }}
            />
            <TextField
              {...bind('newPassword')}
              type="password"
              label={t('new_password')}
              autoComplete="new-password"
              error={Boolean(shownNewError)}
              helperText={
                shownNewError
                  ? t(shownNewError)
                  : t('password_help', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH, specials: PASSWORD_SPECIALS.split('').join(' ') })
              }
              slotProps={{ htmlInput: { maxLength: PASSWORD_MAX_LENGTH } }}
            />
            <TextField
              {...bind('confirm')}
              type="password"
              label={t('new_password_confirm')}
              autoComplete="new-password"
              error={Boolean(confirmError)}
              helperText={confirmError ? t(confirmError) : undefined}
              slotProps={{ htmlInput: { maxLength: PASSWORD_MAX_LENGTH } }}
            />
            {otherError !== null && <Alert severity="error">{messageText(t, otherError)}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          {required ? <Button onClick={onSignOut}>{t('logout')}</Button> : <Button onClick={close}>{t('cancel')}</Button>}
          <Button type="submit" variant="contained" disabled={!filled} loading={change.isPending}>
            {t('save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
