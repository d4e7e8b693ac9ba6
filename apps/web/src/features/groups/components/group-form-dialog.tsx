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
import { useCreateGroup } from '../api/change-groups';

export const GROUP_NAME_MAX = 60;
export const GROUP_DESCRIPTION_MAX = 500;

/** Create group: a name (required) and a description. */
export function CreateGroupDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateGroup();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [checked, setChecked] = useState(false);
  useEffect(() => {
    if (open) {
      setName('');
      setDescription('');
      setChecked(false);
      create.reset();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const nameMissing = name.trim() === '';
  const serverKey = create.error instanceof ApiError ? create.error.messageKey : create.error ? 'request_error_message' : null;
  const nameError = checked && nameMissing ? 'rules_group_name_required' : serverKey === 'group_name_duplicate' ? serverKey : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (nameMissing || create.isPending) return;
    create.mutate(
      { name: name.trim(), description: description.trim() },
      {
        onSuccess: () => {
          notify(t('group_created'));
          onClose();
        },
      },
    );
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="create-group-title">
      <form noValidate onSubmit={submit}>
        <DialogTitle id="create-group-title">{t('group_create')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('group_name')}
              value={name}
              autoFocus
              onChange={(event) => {
                setName(event.target.value);
                if (create.error) create.reset();
              }}
              error={Boolean(nameError)}
              helperText={nameError ? messageText(t, nameError) : ' '}
              slotProps={{ htmlInput: { maxLength: GROUP_NAME_MAX } }}
            />
            <TextField
              label={t('column_description')}
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              multiline
              minRows={2}
              slotProps={{ htmlInput: { maxLength: GROUP_DESCRIPTION_MAX } }}
            />
            {serverKey && serverKey !== 'group_name_duplicate' && <Alert severity="error">{messageText(t, serverKey)}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" disabled={nameMissing} loading={create.isPending}>
            {t('create')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
