import { APP_PASSWORD_NAME_MAX, PASSWORD_MAX_LENGTH, type AppPasswordCreated } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../api/client';
import { CopyableValue } from '../../../../components/copy-button';
import { messageText } from '../../../../i18n/keys';
import { useCreateAppPassword } from '../../api/app-passwords';
import { useFullScreenDialog } from '../../../../components/use-full-screen-dialog';

interface NewAppPasswordDialogProps {
  open: boolean;
  /** The account e-mail: the user name WebDAV clients sign in with. */
  email: string;
  onClose: () => void;
}

/** The WebDAV address of the whole storage on this server. */
export const davRootAddress = () => `${window.location.origin}/dav/`;

/**
 * Makes an app password: a name and the current password, then the new password, shown
 * this once, with the WebDAV address and the user name a client needs.
 */
export function NewAppPasswordDialog({ open, email, onClose }: NewAppPasswordDialogProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const create = useCreateAppPassword();
  const [name, setName] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [created, setCreated] = useState<AppPasswordCreated | null>(null);
  const errorKey = create.error ? (create.error instanceof ApiError ? create.error.messageKey : '') : null;
  const passwordError = errorKey !== null && ['not_matched_origin_password', 'login_attempt_restrict', 'too_many_requests_message'].includes(errorKey);

  const close = () => {
    setName('');
    setCurrentPassword('');
    setCreated(null);
    create.reset();
    onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '' || currentPassword === '' || create.isPending) return;
    create.mutate({ name: name.trim(), currentPassword }, { onSuccess: (answer) => setCreated(answer), onError: () => setCurrentPassword('') });
  };

  return (
    <Dialog
      open={open}
      onClose={create.isPending ? undefined : close}
      fullScreen={fullScreen}
      maxWidth={false}
      aria-labelledby="new-app-password-title"
      slotProps={{ paper: { sx: fullScreen ? undefined : { width: 560 } } }}
    >
      {created ? (
        <>
          <DialogTitle id="new-app-password-title">{t('app_password_created_title')}</DialogTitle>
          <DialogContent>
            <Stack spacing={2}>
              <Alert severity="warning">{t('app_password_shown_once')}</Alert>
              <CopyableValue label={created.name} value={created.password} copyLabel={t('app_password_copy')} emphasis data-testid="new-app-password" />
              <CopyableValue label={t('dav_address')} value={davRootAddress()} copyLabel={t('dav_address_copy')} />
              <CopyableValue label={t('dav_user_name')} value={email} copyLabel={t('dav_user_name_copy')} />
              <DialogContentText variant="body2">{t('app_password_use_hint')}</DialogContentText>
            </Stack>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2.5 }}>
            <Button variant="contained" onClick={close}>
              {t('app_password_done')}
            </Button>
          </DialogActions>
        </>
      ) : (
        <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'contents' }}>
          <DialogTitle id="new-app-password-title">{t('app_password_new')}</DialogTitle>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>{t('app_password_new_description')}</DialogContentText>
            <Stack spacing={2}>
              <TextField
                value={name}
                onChange={(event) => {
                  setName(event.target.value);
                  create.reset();
                }}
                label={t('app_password_name')}
                placeholder={t('app_password_name_placeholder')}
                autoFocus
                fullWidth
                error={errorKey !== null && !passwordError}
                helperText={errorKey !== null && !passwordError ? messageText(t, errorKey) : t('app_password_name_help')}
                slotProps={{ htmlInput: { maxLength: APP_PASSWORD_NAME_MAX } }}
              />
              <TextField
                value={currentPassword}
                onChange={(event) => {
                  setCurrentPassword(event.target.value);
                  create.reset();
                }}
                type="password"
                label={t('current_password')}
                autoComplete="current-password"
                fullWidth
                error={passwordError}
                helperText={passwordError ? messageText(t, errorKey) : t('reauth_password_required')}
                slotProps={{ htmlInput: { maxLength: PASSWORD_MAX_LENGTH } }}
              />
            </Stack>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2.5 }}>
            <Button onClick={close} disabled={create.isPending}>
              {t('cancel')}
            </Button>
            <Button type="submit" variant="contained" disabled={name.trim() === '' || currentPassword === ''} loading={create.isPending}>
              {t('app_password_create')}
            </Button>
          </DialogActions>
        </Box>
      )}
    </Dialog>
  );
}
