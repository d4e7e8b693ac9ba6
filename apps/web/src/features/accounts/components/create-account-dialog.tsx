import { NAME_MAX_LENGTH, checkEmail, checkName } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../components/notify';
import { messageText } from '../../../i18n/keys';
import { useCreateAccount, useInitialPassword } from '../api/create-account';

/** Create account: name and email (both required, else nothing is sent) and a note with the initial password. */
export function CreateAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateAccount();
  const initial = useInitialPassword(open);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [checked, setChecked] = useState(false);
  useEffect(() => {
    if (open) {
      setName('');
      setEmail('');
      setChecked(false);
      create.reset();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const nameRule = checkName(name);
  const emailRule = checkEmail(email);
  const serverKey = create.error instanceof ApiError ? create.error.messageKey : create.error ? 'request_error_message' : null;
  const emailServer = serverKey === 'rules_email_duplicate' || serverKey === 'rules_email_pattern' ? serverKey : null;
  const nameServer = serverKey === 'rules_name_pattern' || serverKey === 'rules_name_required' ? serverKey : null;
  const otherServer = serverKey && !emailServer && !nameServer ? serverKey : null;
  const nameError = (checked || name !== '') && nameRule ? nameRule : nameServer;
  const emailError = (checked || email !== '') && emailRule ? emailRule : emailServer;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (nameRule || emailRule || create.isPending) return;
    create.mutate(
      { name: name.trim(), email: email.trim() },
      {
        onSuccess: () => {
          notify(t('account_created'));
          onClose();
        },
      },
    );
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="create-account-title">
      <form noValidate onSubmit={submit}>
        <DialogTitle id="create-account-title">{t('account_create')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('name')}
              value={name}
              autoFocus
              onChange={(event) => {
                setName(event.target.value);
                if (create.error) create.reset();
              }}
              error={Boolean(nameError)}
              helperText={nameError ? t(nameError) : ' '}
              slotProps={{ htmlInput: { maxLength: NAME_MAX_LENGTH } }}
            />
            <TextField
              label={t('email')}
              type="email"
              value={email}
              onChange={(event) => {
                setEmail(event.target.value);
                if (create.error) create.reset();
              }}
              error={Boolean(emailError)}
              helperText={emailError ? t(emailError) : ' '}
            />
            <Alert severity="info" data-testid="initial-password-note">
              {initial.data ? t('account_initial_password_note', { password: initial.data.password }) : t('account_initial_password_note_unknown')}
            </Alert>
            {otherServer && <Alert severity="error">{messageText(t, otherServer)}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" disabled={!name.trim() || !email.trim()} loading={create.isPending}>
            {t('create')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
